import { MainApiConsumerEnv } from '@platform/main-api-client';

export class IntegrationsEnv extends MainApiConsumerEnv {
  override PORT = 3002;
}

export const INTEGRATIONS_ENV = Symbol('INTEGRATIONS_ENV');
