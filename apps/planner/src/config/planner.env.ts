import { MainApiConsumerEnv } from '@platform/main-api-client';
import { IntegerSetting } from '@platform/runtime';

export class PlannerEnv extends MainApiConsumerEnv {
  override PORT = 3001;

  /** How long the planner's change feed (GET /v2/events) keeps events; older cursors answer 410. */
  @IntegerSetting('EVENTS_RETENTION_DAYS', 1, 3650, 'of days')
  EVENTS_RETENTION_DAYS = 30;

  /** How often each replica removes change events past their retention; replicas take turns. */
  @IntegerSetting('RETENTION_INTERVAL_SECONDS', 10, 86400, 'of seconds')
  RETENTION_INTERVAL_SECONDS = 3600;
}

export const PLANNER_ENV = Symbol('PLANNER_ENV');
