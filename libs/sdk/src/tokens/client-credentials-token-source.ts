import { AccessTokenCache, type AccessTokenSource, type TokenTiming } from './access-token-source';
import { TokenEndpoint } from './token-endpoint';

export interface ClientCredentials {
  /** The API client's key (its OAuth client_id). */
  apiKey: string;
  clientSecret: string;
}

/**
 * Tokens for an API client (an integration, a script): a client-credentials grant whenever the
 * token runs out. The grant's refresh token is not used: the credentials can always get a new
 * login, and there is then no single-use token to lose between processes.
 */
export class ClientCredentialsTokenSource implements AccessTokenSource {
  private readonly cache: AccessTokenCache;

  constructor(mainApiUrl: string, credentials: ClientCredentials, timing?: TokenTiming) {
    const endpoint = new TokenEndpoint(mainApiUrl);
    this.cache = new AccessTokenCache(
      () => endpoint.clientCredentials(credentials.apiKey, credentials.clientSecret),
      timing,
    );
  }

  accessToken(): Promise<string> {
    return this.cache.accessToken();
  }

  reject(token: string): void {
    this.cache.reject(token);
  }
}
