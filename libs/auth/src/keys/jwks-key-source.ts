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
}

/**
 * Public keys fetched from main-api's JWKS and cached: planner and integrations verify tokens
 * without holding any secret. An unknown `kid` (a key rotated in) refreshes the cache.
 */
export class JwksKeySource extends VerificationKeySource {
  private readonly logger = new Logger('JwksKeySource');
  private keys = new Map<string, KeyObject>();
  private fetchedAt = 0;
  private inFlight?: Promise<void>;

  constructor(private readonly options: JwksKeySourceOptions) {
    super();
  }

  async keyFor(kid: string): Promise<KeyObject | undefined> {
    const ttl = this.options.cacheTtlMs ?? 10 * 60_000;
    const minInterval = this.options.minRefreshIntervalMs ?? 30_000;
    const age = Date.now() - this.fetchedAt;
    if (age >= ttl || (!this.keys.has(kid) && age >= minInterval)) {
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
      this.fetchedAt = Date.now();
    } catch (error) {
      // Keep the last known keys: main-api being briefly down must not log everyone out.
      this.logger.warn(
        `could not refresh JWKS from ${this.options.url}: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.fetchedAt = Math.max(
        this.fetchedAt,
        Date.now() - (this.options.cacheTtlMs ?? 10 * 60_000) + 5_000,
      );
    }
  }
}
