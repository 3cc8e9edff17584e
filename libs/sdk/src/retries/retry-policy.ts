/** How far the SDK follows a service's `429`/`503` + `Retry-After`. */
export interface RetryPolicy {
  /** Sends of one request in all, the first included (default 3). */
  maxAttempts: number;
  /** The longest wait the SDK accepts; a longer `Retry-After` hands the answer to the caller (default 30 s). */
  maxWaitSeconds: number;
  /** The wait when a 429 or 503 has no usable `Retry-After` (default 1 s). */
  defaultWaitSeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  maxWaitSeconds: 30,
  defaultWaitSeconds: 1,
};

/** The statuses the services answer with `Retry-After`: quota used up, and a dependency unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Whether sending `request` twice does no more than sending it once: the idempotent methods of RFC
 * 9110 §9.2.2, and a POST that carries an `Idempotency-Key` (main-api answers a repeat of the key
 * with the first answer). Anything else may have been half done and is not repeated.
 */
export function isRepeatable(request: Request): boolean {
  switch (request.method) {
    case 'GET':
    case 'HEAD':
    case 'PUT':
    case 'DELETE':
      return true;
    case 'POST':
      return request.headers.has('idempotency-key');
    default:
      return false;
  }
}

/**
 * The wait `Retry-After` asks for, in milliseconds (RFC 9110 §10.2.3: delay-seconds or an
 * HTTP-date), or undefined when it is absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) {
    return undefined;
  }
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    return Number(value) * 1000;
  }
  // Every HTTP-date form starts with the day's name; Date.parse alone would take "-1" for a year.
  const date = /^[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
