import { MainApiConsumerEnv } from '@platform/main-api-client';

export class PlannerEnv extends MainApiConsumerEnv {
  override PORT = 3001;
}

export const PLANNER_ENV = Symbol('PLANNER_ENV');
