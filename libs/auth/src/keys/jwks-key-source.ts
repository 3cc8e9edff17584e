import type { KeyObject } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { fromJwk } from './jwk';
import { VerificationKeySource } from './verification-key-source';

export interface JwksKeySourceOptions {
  /** e.g. http://main-api:3000/v1/.well-known/jwks.json */
  url: string;
  timeoutMs: number;
  /** Keys are refetched after this long even when every kid is known (rotation retires keys). */
  cacheTtlMs?: number;
  /** An unknown kid triggers a refetch at most this often, so garbage tokens cannot hammer main-api. */
  minRefreshIntervalMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/**
 * A key withdrawn from main-api's JWKS must stop verifying within a minute: at most this long in
 * this cache, plus at most `VERIFIED_TOKEN_MAX_AGE_MS` for a token verified just before the refetch.
 */
export const JWKS_CACHE_TTL_MS = 30_000;
/** A token signed with a key just rotated in is refused for at most this long. */
export const JWKS_MIN_REFRESH_INTERVAL_MS = 30_000;
/** After a failed refetch the last keys stay in use, and the next request tries again this soon. */
export const JWKS_RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * Public keys fetched from main-api's JWKS and cached: planner and integrations verify tokens
 * without holding any secret. An unknown `kid` (a key rotated in) refreshes the cache.
 */
export class JwksKeySource extends VerificationKeySource {
  private readonly logger = new Logger('JwksKeySource');
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private inFlight?: Promise<void>;
  private readonly ttl: number;
  private readonly minRefreshInterval: number;
  private readonly now: () => number;

  constructor(private readonly options: JwksKeySourceOptions) {
    super();
    this.ttl = options.cacheTtlMs ?? JWKS_CACHE_TTL_MS;
    this.minRefreshInterval = options.minRefreshIntervalMs ?? JWKS_MIN_REFRESH_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  async keyFor(kid: string): Promise<KeyObject | undefined> {
    const age = this.now() - this.fetchedAt;
    if (age >= this.ttl || (!this.keys.has(kid) && age >= this.minRefreshInterval)) {
      await this.refresh();
    }
    return this.keys.get(kid);
  }

  private refresh(): Promise<void> {
    // Concurrent requests share one fetch.
    this.inFlight ??= this.fetchKeys().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchKeys(): Promise<void> {
    try {
      const response = await fetch(this.options.url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
      if (!response.ok) {
        throw new Error(`JWKS answered ${response.status}`);
      }
      const document = (await response.json()) as { keys?: unknown };
      const keys = new Map<string, KeyObject>();
      for (const jwk of Array.isArray(document.keys) ? document.keys : []) {
        const parsed = fromJwk(jwk as Parameters<typeof fromJwk>[0]);
        if (parsed) {
          keys.set(parsed.kid, parsed.key);
        }
      }
      this.keys = keys;
      this.fetchedAt = this.now();
    } catch (error) {
      // Keep the last known keys: main-api being briefly down must not log everyone out. Count the
      // cache as expiring soon, so a recovered main-api (and any key it withdrew) is seen quickly.
      this.logger.warn(
        `could not refresh JWKS from ${this.options.url}: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.fetchedAt = Math.max(this.fetchedAt, this.now() - this.ttl + JWKS_RETRY_AFTER_FAILURE_MS);
    }
  }
}
