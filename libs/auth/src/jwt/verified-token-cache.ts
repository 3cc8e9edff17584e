import type { Principal } from '../principal/principal';

/**
 * A key withdrawn from the JWKS stops counting within a minute: the key source forgets it within
 * its 30 s TTL, and a token it verified just before is remembered at most this much longer.
 */
export const VERIFIED_TOKEN_MAX_AGE_MS = 30_000;

/**
 * Tokens this replica verified recently, by their exact text: a client sends the same token on
 * every request for an hour, and the planner forwards one token to main-api several times per
 * request, so the RS256 check and passport's per-request machinery run once per token and 30 s
 * instead of once per request. Only verified tokens enter; an entry lasts until the token's `exp`
 * or `VERIFIED_TOKEN_MAX_AGE_MS`, whichever comes first; the oldest entries go first once it holds
 * `maxEntries`.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { principal: Principal; validUntil: number }>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly maxAgeMs = VERIFIED_TOKEN_MAX_AGE_MS,
  ) {}

  get(token: string, now = Date.now()): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) {
      return undefined;
    }
    if (entry.validUntil <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.principal;
  }

  /** Remembers a token that just passed verification (its `exp` read from its verified payload). */
  remember(token: string, principal: Principal, now = Date.now()): void {
    const expiresAt = expiryOf(token);
    if (expiresAt === undefined || expiresAt <= now) {
      return;
    }
    if (this.entries.size >= this.maxEntries) {
      // A Map iterates in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
      }
    }
    this.entries.set(token, {
      principal: Object.freeze({ ...principal }),
      validUntil: Math.min(expiresAt, now + this.maxAgeMs),
    });
  }

  forget(token: string): void {
    this.entries.delete(token);
  }

  get size(): number {
    return this.entries.size;
  }
}

function expiryOf(token: string): number | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const exp = (payload as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
