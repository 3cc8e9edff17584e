import { Expose } from 'class-transformer';
import { Matches } from 'class-validator';
import { MayBeAbsent } from '@platform/contracts';
import { withEventStreamSettings } from '@platform/database';
import { MainApiConsumerEnv } from '@platform/main-api-client';
import { IntegerSetting } from '@platform/runtime';

// The change stream's variables (EVENT_STREAM*) come with withEventStreamSettings, as main-api's do.
export class PlannerEnv extends withEventStreamSettings(MainApiConsumerEnv) {
  override PORT = 3001;

  /** How long the planner's change feed (GET /v2/events) keeps events; older cursors answer 410. */
  @IntegerSetting('EVENTS_RETENTION_DAYS', 1, 3650, 'of days')
  EVENTS_RETENTION_DAYS = 30;

  /** How often each replica removes change events past their retention; replicas take turns. */
  @IntegerSetting('RETENTION_INTERVAL_SECONDS', 10, 86400, 'of seconds')
  RETENTION_INTERVAL_SECONDS = 3600;

  /**
   * The key main-api and integrations share (32 random bytes, base64): with it the planner lets the
   * integrations service, signed as itself, watch which companies have new events
   * (`GET /v2/events/watch`). Unset: the watch refuses everyone and integrations reads the
   * planner feeds of subscribing companies every DELIVERY_POLL_MS instead.
   */
  @Expose()
  @MayBeAbsent()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message: 'CHANGE_ORIGIN_KEY must be 32 random bytes in base64, the value integrations has',
  })
  CHANGE_ORIGIN_KEY?: string;

  /**
   * The connection each replica LISTENs on for new change events (the watch). LISTEN needs a
   * session, so behind PgBouncer in transaction mode this must reach PostgreSQL directly (or a
   * session-mode pool). DATABASE_URL when unset.
   */
  @Expose()
  @MayBeAbsent()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_LISTEN_URL must be a postgres:// connection URL' })
  DATABASE_LISTEN_URL?: string;
}

export const PLANNER_ENV = Symbol('PLANNER_ENV');
