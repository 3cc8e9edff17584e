import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43-128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** BASE64URL(SHA-256(verifier)) without padding is always 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.6 with S256, the only method offered (`plain` would protect nothing in a browser). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !S256_CHALLENGE.test(challenge)) {
    return false;
  }
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
