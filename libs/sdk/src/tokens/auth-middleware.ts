import type { Middleware } from 'openapi-fetch';
import type { Send } from '../retries/retry-middleware';
import type { AccessTokenSource } from './access-token-source';

const sendAsIs: Send = (request, fetch) => fetch(request);

/**
 * openapi-fetch middleware: every request gets `Authorization: Bearer` from `tokens` (unless it
 * set its own), and a 401 is answered once more with a new token. A 401 means the service did
 * nothing with the request, so it is resent whatever its method; a second 401 is the caller's.
 * `resend` sends that copy (createPlatformSdk passes one that follows Retry-After).
 */
export function authMiddleware(tokens: AccessTokenSource, resend: Send = sendAsIs): Middleware {
  // A copy of each request in flight, by openapi-fetch's request id, taken before fetch consumes
  // its body; with the bearer it was sent with.
  const sent = new Map<string, { copy: Request; token: string }>();
  return {
    async onRequest({ request, id }) {
      if (request.headers.has('authorization')) {
        return undefined;
      }
      const token = await tokens.accessToken();
      request.headers.set('authorization', `Bearer ${token}`);
      sent.set(id, { copy: request.clone(), token });
      return request;
    },
    async onResponse({ response, id, options }) {
      const entry = sent.get(id);
      sent.delete(id);
      if (entry === undefined || response.status !== 401) {
        return undefined;
      }
      tokens.reject(entry.token);
      const token = await tokens.accessToken();
      await response.body?.cancel();
      entry.copy.headers.set('authorization', `Bearer ${token}`);
      return resend(entry.copy, options.fetch);
    },
    onError({ id }) {
      sent.delete(id);
      return undefined;
    },
  };
}
