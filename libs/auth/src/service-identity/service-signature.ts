import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Service-Signature: <service>.<unix seconds>.<mac>`: a call made by one of the platform's own
 * services for itself, not for a company (the change feed's watch, integrations' own identity). The
 * MAC is HMAC-SHA256 under `CHANGE_ORIGIN_KEY`, the key only integrations and main-api hold, over
 * the service, the time, the method and the request target (path and query string, exactly as
 * sent), so a signature seen in a log cannot be replayed on another route or with other parameters,
 * nor on this one past `SERVICE_SIGNATURE_MAX_AGE_SECONDS` (either way, for clock skew). Its input
 * starts with `service:`, which no change-origin signature's input does (those start with a source
 * token), so one key serves both without either signature being valid as the other.
 */
export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
export const SERVICE_SIGNATURE_MAX_AGE_SECONDS = 60;

const SIGNATURE = /^([a-z][a-z0-9-]{0,31})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function mac(key: string, service: string, seconds: string, method: string, target: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64'))
    .update(`service:${service}\n${seconds}\n${method.toUpperCase()} ${target}`)
    .digest('base64url');
}

/**
 * The header value for a call made now by `service` to `target`: the path with its query string
 * (`/v1/events/watch?after=…&wait=20`), byte for byte as the request will carry it.
 */
export function signServiceRequest(
  key: string,
  service: string,
  method: string,
  target: string,
  nowMs = Date.now(),
): string {
  const seconds = String(Math.floor(nowMs / 1000));
  return `${service}.${seconds}.${mac(key, service, seconds, method, target)}`;
}

/**
 * The service that signed this call to `target` (path and query string, as received), or undefined
 * when the signature is malformed, stale or wrong.
 */
export function serviceSigning(
  key: string,
  header: string,
  method: string,
  target: string,
  nowMs = Date.now(),
): string | undefined {
  const parts = SIGNATURE.exec(header);
  if (!parts) {
    return undefined;
  }
  const [, service, seconds, given] = parts as unknown as [string, string, string, string];
  if (Math.abs(nowMs / 1000 - Number(seconds)) > SERVICE_SIGNATURE_MAX_AGE_SECONDS) {
    return undefined;
  }
  const expected = Buffer.from(mac(key, service, seconds, method, target));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? service : undefined;
}

/**
 * The service that signed `request` for the route at `path` (fixed by the route, so a proxy's path
 * prefix does not matter), followed by the query string exactly as received; undefined without a
 * key, a signature, or with a wrong one.
 */
export function serviceSigningOf(
  key: string | undefined,
  request: { headers: Record<string, string | string[] | undefined>; method: string; url: string },
  path: string,
): string | undefined {
  const header = request.headers[SERVICE_SIGNATURE_HEADER];
  if (key === undefined || typeof header !== 'string') {
    return undefined;
  }
  const queryAt = request.url.indexOf('?');
  return serviceSigning(key, header, request.method, path + (queryAt < 0 ? '' : request.url.slice(queryAt)));
}
