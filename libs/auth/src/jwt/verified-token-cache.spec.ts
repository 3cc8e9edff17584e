import { JWKS_CACHE_TTL_MS } from '../keys/jwks-key-source';
import type { Principal } from '../principal/principal';
import { VerifiedTokenCache } from './verified-token-cache';

const principal: Principal = {
  subject: 'user:1',
  companyId: 1,
  roleId: 1,
  userId: 1,
  tokenId: 'j1',
  epoch: 0,
};
const tokenExpiringAt = (expSeconds: number, marker = 'a'): string =>
  [
    Buffer.from('{"alg":"RS256"}').toString('base64url'),
    Buffer.from(JSON.stringify({ exp: expSeconds, jti: marker })).toString('base64url'),
    'signature',
  ].join('.');

describe('VerifiedTokenCache', () => {
  const now = 1_800_000_000_000;

  it('answers a remembered token with its principal, frozen', () => {
    const cache = new VerifiedTokenCache();
    const token = tokenExpiringAt(now / 1000 + 3600);
    cache.remember(token, principal, now);

    const found = cache.get(token, now + 1000);

    expect(found).toEqual(principal);
    expect(Object.isFrozen(found)).toBe(true);
    expect(cache.get(`${token}x`, now)).toBeUndefined();
  });

  it('forgets a token at its exp, even before its 30 s are up', () => {
    const cache = new VerifiedTokenCache();
    const token = tokenExpiringAt(now / 1000 + 10);
    cache.remember(token, principal, now);

    expect(cache.get(token, now + 9_999)).toBeDefined();
    expect(cache.get(token, now + 10_000)).toBeUndefined();
  });

  it('forgets any token after 30 s, so a key withdrawn from the JWKS stops verifying within 60 s', () => {
    // The worst case: the key source still holds the withdrawn key for up to its 30 s TTL, and a
    // token it verified in the last instant is remembered from then on.
    const withdrawnAt = now;
    const lastVerifiedWithTheKey = withdrawnAt + JWKS_CACHE_TTL_MS - 1;
    const cache = new VerifiedTokenCache();
    const token = tokenExpiringAt(now / 1000 + 3600);
    cache.remember(token, principal, lastVerifiedWithTheKey);

    expect(cache.get(token, lastVerifiedWithTheKey + 29_999)).toBeDefined();
    expect(cache.get(token, lastVerifiedWithTheKey + 30_000)).toBeUndefined();
    expect(lastVerifiedWithTheKey + 30_000 - withdrawnAt).toBeLessThanOrEqual(60_000);
  });

  it('does not keep a token without a readable exp, or already expired', () => {
    const cache = new VerifiedTokenCache();
    cache.remember('not.a-token', principal, now);
    cache.remember(tokenExpiringAt(now / 1000 - 1), principal, now);

    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the oldest first', () => {
    const cache = new VerifiedTokenCache(2);
    const [first, second, third] = ['a', 'b', 'c'].map((marker) =>
      tokenExpiringAt(now / 1000 + 3600, marker),
    );
    cache.remember(first, principal, now);
    cache.remember(second, principal, now);
    cache.remember(third, principal, now);

    expect(cache.size).toBe(2);
    expect(cache.get(first, now)).toBeUndefined();
    expect(cache.get(third, now)).toBeDefined();
  });
});
