import { createHmac, timingSafeEqual } from 'node:crypto';

export const CHANGE_ORIGIN_HEADER = 'x-change-origin';
export const CHANGE_ORIGIN_SIGNATURE_HEADER = 'x-change-origin-signature';

/**
 * `X-Change-Origin` hides a change from the subscriptions of that integration source, so only the
 * integrations service may send it: it signs the origin together with the exact Authorization
 * header of the call with `CHANGE_ORIGIN_KEY`, a key only it and main-api hold. Bound to the
 * bearer token, a signature seen once cannot mark another caller's changes.
 */
export function signChangeOrigin(key: string, origin: string, authorization: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64'))
    .update(`${origin}\n${authorization}`)
    .digest('base64url');
}

export function isChangeOriginSignedBy(
  key: string,
  origin: string,
  authorization: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signChangeOrigin(key, origin, authorization));
  const actual = Buffer.from(signature);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
