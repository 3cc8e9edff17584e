import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { REQUEST_ID_HEADER } from '../logging/request-id';

type CorsOptions = NonNullable<Parameters<NestFastifyApplication['enableCors']>[0]>;

/** How long a browser may reuse a preflight answer (Chromium caps it at 7200 s anyway). */
export const CORS_MAX_AGE_SECONDS = 600;

export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The request headers a browser app sends beyond the CORS-safelisted ones: the bearer token, JSON
 * bodies, main-api's documented `Idempotency-Key`, and a request id to trace a call by. The
 * services' other headers (`X-Webhook-*`, `X-Change-Origin`) come from servers, never from pages.
 * `CORS_ALLOWED_HEADERS` adds to them (a browser tracing library's `traceparent`, `sentry-trace`).
 */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  'if-match',
  'if-none-match',
  // EventSource's reconnect of a change stream resumes with it (issue 41).
  'last-event-id',
  REQUEST_ID_HEADER,
];

/** The response headers a page's script may read besides the safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  REQUEST_ID_HEADER,
  'idempotent-replayed',
  'retry-after',
  'etag',
  'ratelimit',
  'ratelimit-policy',
];

/**
 * `@fastify/cors` options for an origin list, applied through Nest's `enableCors`, which runs the
 * plugin's hook in the adapter's first `onRequest` hooks: a preflight is answered (204) before
 * routing, guards and authentication, and error answers (a 401, a 404) carry the headers too.
 *
 * The origin is a function rather than the list so that a disallowed origin (or none) gets no CORS
 * header at all, not even the preflight's methods; its preflight then falls through to the
 * service's 404. The function also makes every answer `Vary: Origin`, so a shared cache never
 * hands one origin's answer to another. No credentials mode: callers send bearer tokens, not cookies.
 */
export function corsOptions(
  allowedOrigins: readonly string[],
  extraAllowedHeaders: readonly string[] = [],
): CorsOptions {
  const allowed = new Set(allowedOrigins);
  return {
    origin: (origin, callback) => {
      callback(null, origin !== undefined && allowed.has(origin));
    },
    methods: [...CORS_ALLOWED_METHODS],
    allowedHeaders: [...new Set([...CORS_ALLOWED_HEADERS, ...extraAllowedHeaders])],
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE_SECONDS,
    credentials: false,
    // An OPTIONS from an allowed origin without Access-Control-Request-Method is answered like a
    // preflight (204 with the allowed methods) rather than with the plugin's text/plain 400, whose
    // body would not be the service's error body.
    strictPreflight: false,
  };
}
