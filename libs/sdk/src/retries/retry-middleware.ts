import type { Middleware } from 'openapi-fetch';
import {
  DEFAULT_RETRY_POLICY,
  isRepeatable,
  RETRYABLE_STATUSES,
  retryAfterMs,
  type RetryPolicy,
} from './retry-policy';

type Fetch = typeof globalThis.fetch;

/** Sends a request that a middleware must send again (a retry, the 401 of an expired token). */
export type Send = (request: Request, fetch: Fetch) => Promise<Response>;

/**
 * After `first` (a 429 or 503), waits as its `Retry-After` says and sends a copy of `template`
 * again, while the policy allows. A wait longer than the policy's bound is not taken: the caller
 * gets the answer and decides.
 */
export async function followRetryAfter(
  first: Response,
  template: Request,
  fetch: Fetch,
  policy: RetryPolicy,
): Promise<Response> {
  let response = first;
  for (let attempt = 1; attempt < policy.maxAttempts && RETRYABLE_STATUSES.has(response.status); attempt++) {
    const waitMs = retryAfterMs(response.headers.get('retry-after')) ?? policy.defaultWaitSeconds * 1000;
    if (waitMs > policy.maxWaitSeconds * 1000) {
      break;
    }
    // The refused answer's body is not read: release its connection before waiting.
    await response.body?.cancel();
    await sleep(waitMs, template.signal);
    response = await fetch(template.clone());
  }
  return response;
}

/** A Send that follows `Retry-After` for repeatable requests (the auth middleware's resend). */
export function sendFollowingRetryAfter(policy: RetryPolicy = DEFAULT_RETRY_POLICY): Send {
  return async (request, fetch) => {
    const template = isRepeatable(request) ? request.clone() : undefined;
    const response = await fetch(request);
    return template === undefined ? response : followRetryAfter(response, template, fetch, policy);
  };
}

/**
 * openapi-fetch middleware: a repeatable request (isRepeatable) answered 429 or 503 is sent again
 * after `Retry-After`, at most `maxAttempts` times in all. Register it after the auth middleware, so
 * the copy it keeps carries the bearer.
 */
export function retryMiddleware(policy: Partial<RetryPolicy> = {}): Middleware {
  const settings = { ...DEFAULT_RETRY_POLICY, ...policy };
  // A copy of each repeatable request in flight, by openapi-fetch's request id: fetch consumes the
  // body of the request it sends, so a retry needs one taken before.
  const templates = new Map<string, Request>();
  return {
    onRequest({ request, id }) {
      if (isRepeatable(request)) {
        templates.set(id, request.clone());
      }
      return undefined;
    },
    async onResponse({ response, id, options }) {
      const template = templates.get(id);
      templates.delete(id);
      if (template === undefined || !RETRYABLE_STATUSES.has(response.status)) {
        return undefined;
      }
      return followRetryAfter(response, template, options.fetch, settings);
    },
    onError({ id }) {
      templates.delete(id);
      return undefined;
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}
