import { Expose, Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsUrl, Matches, Max, Min } from 'class-validator';
import { MayBeAbsent } from '@platform/contracts';
import { MainApiConsumerEnv } from '@platform/main-api-client';
import { IntegerSetting } from '@platform/runtime';

const HOUR = 3_600_000;

/** An origin `http(s)://host[:port]`; the host a name, an IPv4 address or a bracketed IPv6 one. */
const ORIGIN = String.raw`https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?/?`;

const RETRY_SCHEDULE_MESSAGE =
  'DELIVERY_RETRY_SCHEDULE_MS must be 1 to 30 comma-separated delays in milliseconds (1 to 604800000 each), e.g. 5000,300000,1800000';

export class IntegrationsEnv extends MainApiConsumerEnv {
  override PORT = 3002;

  /**
   * 32 random bytes, base64 (`openssl rand -base64 32`): encrypts the webhook signing secrets and API
   * client secrets the service keeps. Rotating it makes stored ones unreadable: set them again.
   */
  @Expose()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message:
      'INTEGRATIONS_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32; it is required)',
  })
  INTEGRATIONS_ENCRYPTION_KEY!: string;

  /**
   * 32 random bytes, base64, the same value main-api has: signs `X-Change-Origin` on the writes
   * this service makes for an integration source, so main-api knows they come from here and keeps
   * them out of that source's outbound webhooks (no echo).
   */
  @Expose()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message: 'CHANGE_ORIGIN_KEY must be 32 random bytes in base64, the value main-api has (it is required)',
  })
  CHANGE_ORIGIN_KEY!: string;

  /**
   * Origins a subscription may target although they are plain http or internal addresses (the
   * SSRF rules skip them), comma-separated: `http://127.0.0.1:8080` allows that port only,
   * `http://127.0.0.1` any port of that host. Empty: every target must be public https.
   */
  @Expose()
  @Matches(new RegExp(`^(${ORIGIN}(\\s*,\\s*${ORIGIN})*)?$`), {
    message:
      'SUBSCRIPTION_HTTP_ALLOWED_ORIGINS must be comma-separated origins such as http://127.0.0.1:8080 (scheme, host, optional port)',
  })
  SUBSCRIPTION_HTTP_ALLOWED_ORIGINS = '';

  /**
   * The planner's base URL, e.g. http://planner:3001: integrations follows its change feed
   * (`GET /v2/events`) for subscriptions to allocations. Unset: allocations are not followed.
   */
  @Expose()
  @MayBeAbsent()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'PLANNER_URL must be the http(s) base URL of the planner, e.g. http://localhost:3001' },
  )
  PLANNER_URL?: string;

  /** `off` stops this replica from following the change feed and delivering webhooks. */
  @Expose()
  @IsIn(['on', 'off'], { message: 'DELIVERY_WORKER must be on or off' })
  DELIVERY_WORKER: 'on' | 'off' = 'on';

  /**
   * How often due deliveries are claimed; also how often every company's change feed is read while
   * main-api's watch is unavailable (an older main-api, or it failing).
   */
  @IntegerSetting('DELIVERY_POLL_MS', 10, 600000, 'of milliseconds')
  DELIVERY_POLL_MS = 1000;

  /**
   * How long one watch of the change feed (GET /v1/events/watch, a long poll) waits for a company to
   * have new events before it is asked again: the requests main-api gets from each replica at rest.
   */
  @IntegerSetting('FEED_WATCH_WAIT_SECONDS', 1, 55, 'of seconds')
  FEED_WATCH_WAIT_SECONDS = 20;

  /** Deadline of one delivery attempt: connecting, sending and the receiver's answer. */
  @IntegerSetting('DELIVERY_TIMEOUT_MS', 100, 120000, 'of milliseconds')
  DELIVERY_TIMEOUT_MS = 10000;

  /**
   * Deadline for connecting to the receiver, the TLS handshake included, within DELIVERY_TIMEOUT_MS:
   * a target that drops the connection attempt, or accepts it and never completes the handshake,
   * gives its attempt up after this, not after the whole deadline.
   */
  @IntegerSetting('DELIVERY_CONNECT_TIMEOUT_MS', 100, 120000, 'of milliseconds')
  DELIVERY_CONNECT_TIMEOUT_MS = 3000;

  /**
   * Delivery attempts one company may have under way at once, over all replicas: a company whose
   * receivers hang holds this many attempts at most, and the others' deliveries take the rest.
   */
  @IntegerSetting('DELIVERY_MAX_IN_FLIGHT_PER_COMPANY', 1, 1000)
  DELIVERY_MAX_IN_FLIGHT_PER_COMPANY = 4;

  /**
   * Delivery attempts to one target host name (any port, any company) under way at once, over all
   * replicas: a slow receiver shared by many companies cannot take every attempt either.
   */
  @IntegerSetting('DELIVERY_MAX_IN_FLIGHT_PER_HOST', 1, 1000)
  DELIVERY_MAX_IN_FLIGHT_PER_HOST = 8;

  /**
   * Pause after each failed attempt (±20 % jitter); once they are used up the delivery is `failed`.
   * Default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 10 h: nine attempts over 30 hours at least.
   */
  @Expose()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value.split(',').map((delay) => (/^\s*\d{1,15}\s*$/.test(delay) ? Number(delay) : delay))
      : value,
  )
  @IsArray({ message: RETRY_SCHEDULE_MESSAGE })
  @ArrayMinSize(1, { message: RETRY_SCHEDULE_MESSAGE })
  @ArrayMaxSize(30, { message: RETRY_SCHEDULE_MESSAGE })
  @IsInt({ each: true, message: RETRY_SCHEDULE_MESSAGE })
  @Min(1, { each: true, message: RETRY_SCHEDULE_MESSAGE })
  @Max(7 * 24 * HOUR, { each: true, message: RETRY_SCHEDULE_MESSAGE })
  DELIVERY_RETRY_SCHEDULE_MS: number[] = [
    5000,
    300_000,
    1_800_000,
    2 * HOUR,
    5 * HOUR,
    10 * HOUR,
    10 * HOUR,
    10 * HOUR,
  ];

  /** How long finished deliveries (delivered or failed) and their attempts stay in the log. */
  @IntegerSetting('DELIVERY_LOG_RETENTION_DAYS', 1, 3650, 'of days')
  DELIVERY_LOG_RETENTION_DAYS = 30;

  /**
   * How long a received webhook event is kept after it was last received: within it, a redelivery of
   * the same event id gets the first outcome instead of being applied again. Default 7 days, above
   * the retry period of common senders.
   */
  @IntegerSetting('WEBHOOK_EVENT_RETENTION_DAYS', 1, 3650, 'of days')
  WEBHOOK_EVENT_RETENTION_DAYS = 7;

  /**
   * How often each replica removes what is past its retention (webhook events, the delivery log);
   * the first run comes within a minute of the start. Replicas take tables in turns.
   */
  @IntegerSetting('RETENTION_INTERVAL_SECONDS', 10, 86400, 'of seconds')
  RETENTION_INTERVAL_SECONDS = 3600;

  /**
   * Subscriptions one company may have, active and disabled alike: creating one more answers 422
   * SubscriptionLimitError (delete one first).
   */
  @IntegerSetting('SUBSCRIPTION_MAX_PER_COMPANY', 1, 100000)
  SUBSCRIPTION_MAX_PER_COMPANY = 50;

  /** A subscription whose deliveries keep failing this long is disabled. Default 5 days. */
  @IntegerSetting('SUBSCRIPTION_DISABLE_AFTER_MS', 100, 90 * 24 * HOUR, 'of milliseconds')
  SUBSCRIPTION_DISABLE_AFTER_MS = 5 * 24 * HOUR;
}

export const INTEGRATIONS_ENV = Symbol('INTEGRATIONS_ENV');
