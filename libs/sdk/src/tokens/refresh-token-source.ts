import { LoginEndedError, PlatformApiError } from '../errors';
import { AccessTokenCache, type AccessTokenSource, type TokenTiming } from './access-token-source';
import { TokenEndpoint, type TokenResponse } from './token-endpoint';

export interface RefreshTokenLogin {
  /** The newest refresh token of the login (single use: each refresh answers the next one). */
  refreshToken: string;
  /** The login's current access token and its `expires_in`, if at hand: saves a refresh at start. */
  initialAccessToken?: { token: string; expiresIn: number };
  /**
   * Called with each new refresh token as soon as it arrives: persist it, the previous one is spent.
   * A process that restarts with a spent token has lost the login.
   */
  onRefreshToken?: (refreshToken: string) => void | Promise<void>;
}

/**
 * Tokens for a login held by its refresh token (a person's, or a browser app's), rotating it on
 * every refresh. Concurrent callers share one refresh (AccessTokenCache), so a token is never sent
 * twice: main-api treats a second use as theft and ends the login, access tokens included.
 */
export class RefreshTokenSource implements AccessTokenSource {
  private readonly cache: AccessTokenCache;
  private readonly endpoint: TokenEndpoint;
  private unspent?: string;

  constructor(
    mainApiUrl: string,
    private readonly login: RefreshTokenLogin,
    timing?: TokenTiming,
  ) {
    this.endpoint = new TokenEndpoint(mainApiUrl);
    this.unspent = login.refreshToken;
    this.cache = new AccessTokenCache(() => this.refresh(), timing);
    if (login.initialAccessToken !== undefined) {
      const { token, expiresIn } = login.initialAccessToken;
      this.cache.remember({ access_token: token, expires_in: expiresIn });
    }
  }

  /** The refresh token to keep (unspent), or undefined once the login has ended. */
  get refreshToken(): string | undefined {
    return this.unspent;
  }

  accessToken(): Promise<string> {
    return this.cache.accessToken();
  }

  reject(token: string): void {
    this.cache.reject(token);
  }

  private async refresh(): Promise<TokenResponse> {
    const spending = this.unspent;
    if (spending === undefined) {
      throw new LoginEndedError(undefined);
    }
    // Spent the moment it is sent: if main-api rotated it and the answer was lost, sending it again
    // would be a replay, which ends the whole login. Failing here leaves the caller a clear error.
    this.unspent = undefined;
    let tokens: TokenResponse;
    try {
      tokens = await this.endpoint.refresh(spending);
    } catch (failure) {
      if (wasNotProcessed(failure)) {
        this.unspent = spending;
        throw failure;
      }
      throw new LoginEndedError(failure);
    }
    this.unspent = tokens.refresh_token;
    await this.login.onRefreshToken?.(tokens.refresh_token);
    return tokens;
  }
}

/** 429 and 503 are answered before anything is done (throttle, unavailable): the token is unspent. */
function wasNotProcessed(failure: unknown): boolean {
  return failure instanceof PlatformApiError && (failure.status === 429 || failure.status === 503);
}
