import { MayBeAbsent } from '@platform/contracts';
import { Expose } from 'class-transformer';
import { IsString, IsUrl, Matches } from 'class-validator';
import { withEventStreamSettings } from '@platform/database';
import { BaseServiceEnv, IntegerSetting } from '@platform/runtime';

// The change stream's variables (EVENT_STREAM*) come with withEventStreamSettings, as the planner's do.
export class MainApiEnv extends withEventStreamSettings(BaseServiceEnv) {
  override PORT = 3000;

  /** PEM of the RSA private key that signs access tokens (or JWT_PRIVATE_KEY_FILE). */
  @Expose()
  @MayBeAbsent()
  @IsString()
  JWT_PRIVATE_KEY?: string;

  @Expose()
  @MayBeAbsent()
  @IsString()
  JWT_PRIVATE_KEY_FILE?: string;

  /** PEM public keys of retired signing keys, still accepted until their tokens expire (rotation). */
  @Expose()
  @MayBeAbsent()
  @IsString()
  JWT_PREVIOUS_PUBLIC_KEYS?: string;

  @Expose()
  @MayBeAbsent()
  @IsString()
  JWT_PREVIOUS_PUBLIC_KEYS_FILE?: string;

  @IntegerSetting('ACCESS_TOKEN_TTL_SECONDS', 60, 86400, 'of seconds')
  ACCESS_TOKEN_TTL_SECONDS = 3600;

  /** A refresh token not used within this long expires. */
  @IntegerSetting('REFRESH_TOKEN_TTL_SECONDS', 300, 31536000, 'of seconds')
  REFRESH_TOKEN_TTL_SECONDS = 2592000;

  /** A login (refresh-token family) ends this long after it started, however often it rotates. */
  @IntegerSetting('REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS', 300, 63072000, 'of seconds')
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS = 7776000;

  /** Failed token requests per IP and window, whatever the account. */
  @IntegerSetting('TOKEN_RATE_LIMIT_PER_IP', 1, 100000)
  TOKEN_RATE_LIMIT_PER_IP = 30;

  /** Failed token requests per account (API key, username) from one IP and window. */
  @IntegerSetting('TOKEN_RATE_LIMIT_PER_CLIENT', 1, 100000)
  TOKEN_RATE_LIMIT_PER_CLIENT = 10;

  /** Failed token requests per account from all IPs and window (distributed guessing). */
  @IntegerSetting('TOKEN_RATE_LIMIT_PER_ACCOUNT', 1, 100000)
  TOKEN_RATE_LIMIT_PER_ACCOUNT = 100;

  @IntegerSetting('TOKEN_RATE_LIMIT_WINDOW_SECONDS', 1, 3600, 'of seconds')
  TOKEN_RATE_LIMIT_WINDOW_SECONDS = 60;

  /** How long the change feed keeps events (GET /v1/events); older cursors answer 410. */
  @IntegerSetting('EVENTS_RETENTION_DAYS', 1, 3650, 'of days')
  EVENTS_RETENTION_DAYS = 30;

  /**
   * How often each replica removes what is past its retention (change events, idempotency records,
   * ended refresh-token logins, closed sign-in failure windows); the first run comes within a minute
   * of the start. Replicas take tables in turns.
   */
  @IntegerSetting('RETENTION_INTERVAL_SECONDS', 10, 86400, 'of seconds')
  RETENTION_INTERVAL_SECONDS = 3600;

  /**
   * 32 random bytes, base64, shared with the integrations service only: `X-Change-Origin` counts
   * only with a signature made with it (integrations' own identity). Unset: the header is refused.
   */
  @Expose()
  @MayBeAbsent()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message: 'CHANGE_ORIGIN_KEY must be 32 random bytes in base64 (openssl rand -base64 32)',
  })
  CHANGE_ORIGIN_KEY?: string;

  /**
   * The connection main-api LISTENs on for new change events (the change feed's watch, issue 24):
   * one per replica, held open. LISTEN needs a session, so behind PgBouncer in transaction mode this
   * must reach PostgreSQL directly (or a session-mode pool). DATABASE_URL when unset.
   */
  @Expose()
  @MayBeAbsent()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_LISTEN_URL must be a postgres:// connection URL' })
  DATABASE_LISTEN_URL?: string;

  /**
   * The planner's base URL (e.g. http://planner:3001): the project forecast and the portfolio reports
   * read its planned hours (issue 40). Unset: those routes answer 503, everything else works.
   */
  @Expose()
  @MayBeAbsent()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'PLANNER_URL must be the http(s) base URL of the planner, e.g. http://localhost:3001' },
  )
  PLANNER_URL?: string;

  @IntegerSetting('PLANNER_TIMEOUT_MS', 100, 60000, 'of milliseconds')
  PLANNER_TIMEOUT_MS = 10000;
}

export const MAIN_API_ENV = Symbol('MAIN_API_ENV');
