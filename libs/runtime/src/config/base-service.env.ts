import { Expose } from 'class-transformer';
import { MayBeAbsent } from '@platform/contracts';
import { IsBoolean, IsIn, IsString, IsUrl, Matches, MinLength } from 'class-validator';
import { IntegerSetting } from './env-decorators';
import { CorsHeadersSetting } from './cors-headers.setting';
import { CorsOriginsSetting } from './cors-origins.setting';
import { ToBoolean } from './env-transforms';
import { TrustProxySetting, type TrustProxy } from './trust-proxy.setting';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/** Variables every service reads. Each app extends it (and sets its own default PORT). */
export class BaseServiceEnv {
  @Expose()
  @IsIn(['development', 'test', 'production'], {
    message: 'NODE_ENV must be one of development, test, production',
  })
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Expose()
  @IsString({ message: 'HOST must be an interface address such as 0.0.0.0' })
  HOST = '0.0.0.0';

  @IntegerSetting('PORT', 0, 65535)
  PORT = 3000;

  /**
   * Where `GET /metrics` is served. Unset (the default): on PORT with the API. Set: only on this port,
   * by a listener of its own, and the API's port answers 404 there, so a proxy in front of the API
   * can never expose the metrics and a network policy can open this port to Prometheus alone.
   */
  @MayBeAbsent()
  @IntegerSetting('METRICS_PORT', 1, 65535)
  METRICS_PORT?: number;

  @Expose()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @Expose()
  @ToBoolean()
  @IsBoolean({ message: 'LOG_PRETTY must be true or false' })
  LOG_PRETTY = false;

  @Expose()
  @Matches(POSTGRES_URL, { message: 'DATABASE_URL must be a postgres:// connection URL (it is required)' })
  DATABASE_URL!: string;

  /**
   * The role the service's connections act as (`SET ROLE` at connect). Unset: the service's runtime
   * role (`main_api_runtime`, `planner_runtime`, `integrations_runtime`), which its migrations create
   * and grant to, and which DATABASE_URL's login must be a member of. `login`: the login role itself,
   * for a login that is the runtime role (e.g. behind PgBouncer). Never the tables' owner: the
   * service refuses to start as a role that row-level security would not apply to.
   */
  @Expose()
  @MayBeAbsent()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, {
    message: 'DATABASE_ROLE must be a role name (lower-case letters, digits, underscores) or login',
  })
  DATABASE_ROLE?: string;

  /** The tables' owner's connection, used by the migrate command only; DATABASE_URL when unset. */
  @Expose()
  @MayBeAbsent()
  @Matches(POSTGRES_URL, { message: 'MIGRATION_DATABASE_URL must be a postgres:// connection URL' })
  MIGRATION_DATABASE_URL?: string;

  /**
   * Whether fixed statements are prepared once per connection (named). `false` behind a pooler in
   * transaction mode that cannot keep prepared statements across transactions (PgBouncer before
   * 1.21, or without `max_prepared_statements`): every statement then goes unnamed, parsed each time.
   */
  @Expose()
  @ToBoolean()
  @IsBoolean({ message: 'DATABASE_PREPARED_STATEMENTS must be true or false' })
  DATABASE_PREPARED_STATEMENTS = true;

  @IntegerSetting('DATABASE_POOL_MAX', 1, 100)
  DATABASE_POOL_MAX = 10;

  @IntegerSetting('DATABASE_STATEMENT_TIMEOUT_MS', 0, 600000, 'of milliseconds (0 = none)')
  DATABASE_STATEMENT_TIMEOUT_MS = 15000;

  @IntegerSetting('BODY_LIMIT_BYTES', 1024, 52428800)
  BODY_LIMIT_BYTES = 1048576;

  /**
   * Requests a minute each company may make to this service, all its replicas together (0: no
   * quota). Announced on every authenticated answer (`RateLimit-Policy`, `RateLimit`); past it, 429.
   */
  @IntegerSetting('QUOTA_REQUESTS_PER_MINUTE', 0, 10000000)
  QUOTA_REQUESTS_PER_MINUTE = 1200;

  /**
   * How many replicas of this service share each company's quota: each keeps 1/N of it in memory
   * (k8s: the Deployment's replica count).
   */
  @IntegerSetting('QUOTA_REPLICAS', 1, 1000)
  QUOTA_REPLICAS = 1;

  /** Companies with another quota: `<company id>:<requests a minute>`, comma-separated (`12:6000,40:300`). */
  @Expose()
  @MayBeAbsent()
  @Matches(/^\d{1,10}:\d{1,8}(,\d{1,10}:\d{1,8})*$/, {
    message: 'QUOTA_COMPANY_OVERRIDES must be <company id>:<requests a minute>, comma-separated',
  })
  QUOTA_COMPANY_OVERRIDES?: string;

  @IntegerSetting('SHUTDOWN_GRACE_MS', 0, 120000, 'of milliseconds')
  SHUTDOWN_GRACE_MS = 10000;

  /**
   * Which X-Forwarded-For hops to believe for `request.ip` (the token endpoint's per-IP rate limit
   * reads it). Off by default: without a proxy in front, the header is whatever the caller wrote.
   */
  @TrustProxySetting('TRUST_PROXY')
  TRUST_PROXY: TrustProxy = false;

  /**
   * The web origins whose pages may call this service from a browser (CORS), each exactly as the
   * `Origin` header carries it. Empty (the default): no CORS headers, browsers refuse cross-origin
   * calls.
   */
  @CorsOriginsSetting('CORS_ALLOWED_ORIGINS')
  CORS_ALLOWED_ORIGINS: string[] = [];

  /**
   * Request headers those pages may send besides the defaults (`CORS_ALLOWED_HEADERS` of cors.ts),
   * e.g. `traceparent,tracestate,sentry-trace,baggage` for a tracing library in the browser; a
   * preflight asking for a header in neither list gets no `Access-Control-Allow-Headers` for it.
   */
  @CorsHeadersSetting('CORS_ALLOWED_HEADERS')
  CORS_ALLOWED_HEADERS: string[] = [];

  /**
   * Where spans go (OTLP over HTTP; the SDK adds `/v1/traces`). Unset: tracing is off, no SDK is
   * loaded and no `traceparent` is sent. The SDK reads the other standard OTEL_* variables itself.
   */
  @Expose()
  @MayBeAbsent()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    {
      message:
        'OTEL_EXPORTER_OTLP_ENDPOINT must be the http(s) URL of an OTLP receiver, e.g. http://otel-collector:4318',
    },
  )
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The service's name in traces; the app's own name (`main-api`, `planner`, `integrations`) when unset. */
  @Expose()
  @MayBeAbsent()
  @Matches(/^\S{1,128}$/, { message: 'OTEL_SERVICE_NAME must be a name of 1-128 characters without spaces' })
  OTEL_SERVICE_NAME?: string;

  @Expose()
  @IsString()
  @MinLength(1, { message: 'JWT_ISSUER must be a non-empty string (the `iss` main-api puts in tokens)' })
  JWT_ISSUER = 'agency-platform';

  @Expose()
  @IsString()
  @MinLength(1, { message: 'JWT_AUDIENCE must be a non-empty string (the `aud` main-api puts in tokens)' })
  JWT_AUDIENCE = 'agency-platform-api';
}
