import { BaseServiceEnv } from '@platform/runtime';

export class MainApiEnv extends BaseServiceEnv {
  override PORT = 3000;
}

export const MAIN_API_ENV = Symbol('MAIN_API_ENV');
