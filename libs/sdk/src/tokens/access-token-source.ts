import type { TokenResponse } from './token-endpoint';

/** Where the SDK's middleware gets the bearer for each request. */
export interface AccessTokenSource {
  /** A live access token: the cached one, or a new one (concurrent callers share one request). */
  accessToken(): Promise<string>;
  /** A service answered 401 to `token`: forget it, so the next call gets a new one. */
  reject(token: string): void;
}

export interface TokenTiming {
  /** Get a new token this long before the current one expires (default 60 s, at most half its life). */
  renewBeforeSeconds?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

interface CachedToken {
  accessToken: string;
  renewAt: number;
}

/**
 * The cache both token sources share: one token at a time, renewed shortly before `expires_in` runs
 * out, and at most one request for a new one in flight, so a burst of calls on an expired token
 * costs one grant (for refresh tokens that is required: two refreshes would spend one token twice).
 */
export class AccessTokenCache implements AccessTokenSource {
  private current?: CachedToken;
  private pending?: Promise<string>;
  private readonly now: () => number;
  private readonly renewBeforeMs: number;

  constructor(
    private readonly obtain: () => Promise<TokenResponse>,
    timing: TokenTiming = {},
  ) {
    this.now = timing.now ?? Date.now;
    this.renewBeforeMs = (timing.renewBeforeSeconds ?? 60) * 1000;
  }

  accessToken(): Promise<string> {
    if (this.current !== undefined && this.now() < this.current.renewAt) {
      return Promise.resolve(this.current.accessToken);
    }
    this.pending ??= this.renew().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  reject(token: string): void {
    if (this.current?.accessToken === token) {
      this.current = undefined;
    }
  }

  /** Seeds the cache with tokens obtained elsewhere (a login's first answer). */
  remember(tokens: Pick<TokenResponse, 'access_token' | 'expires_in'>): void {
    const lifetimeMs = tokens.expires_in * 1000;
    // Half the lifetime at most, so a short-lived token is not renewed on every call.
    const renewAt = this.now() + lifetimeMs - Math.min(this.renewBeforeMs, lifetimeMs / 2);
    this.current = { accessToken: tokens.access_token, renewAt };
  }

  private async renew(): Promise<string> {
    const tokens = await this.obtain();
    this.remember(tokens);
    return tokens.access_token;
  }
}
