import { Inject, Injectable } from '@nestjs/common';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';
import { hashClientSecret } from '../security/client-secrets';
import { CredentialsService, type TokenAccount } from './credentials.service';
import type { TokenResponseDto } from './dto/token-response.dto';
import { AuthorizationCodes, type CodeExchange } from './authorization/authorization-codes.service';
import type { LoginApp } from './authorization/authorization-codes.repository';
import { AccessTokenSigner, PASSWORD_GRANT_CLIENT_ID } from './keys/access-token-signer';
import { OAuthError } from './oauth.errors';
import { LoginThrottle, LoginThrottledError, type LoginAttempt } from './rate-limit/login-throttle';
import { IssuedAccessTokens } from './revocation/issued-access-tokens';
import {
  RefreshTokensService,
  type RefreshLifetimes,
  type RefreshSubject,
} from './refresh-tokens/refresh-tokens.service';

/** Client credentials as a request presents them (Basic or client_secret_post), already decoded. */
export interface ClientCredentials {
  apiKey: string;
  secret: string;
}

/**
 * The grants of the token endpoints (docs/spec/decisions.md §3) and RFC 7009 revocation, with failures
 * throttled (LoginThrottle): client credentials and refresh tokens are checked first, as they are
 * cheap to check and impossible to guess, so only failures are slowed; passwords are throttled
 * before the slow check.
 */
@Injectable()
export class OAuthService {
  private readonly lifetimes: RefreshLifetimes;

  constructor(
    private readonly credentials: CredentialsService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly signer: AccessTokenSigner,
    private readonly authorizationCodes: AuthorizationCodes,
    private readonly accessTokens: IssuedAccessTokens,
    private readonly throttle: LoginThrottle,
    @Inject(MAIN_API_ENV) env: MainApiEnv,
  ) {
    this.lifetimes = {
      idleSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
      absoluteSeconds: env.REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
    };
  }

  async clientCredentials(client: ClientCredentials | undefined, ip: string): Promise<TokenResponseDto> {
    const started =
      client &&
      (await this.refreshTokens.startForClient(
        client.apiKey,
        hashClientSecret(client.secret),
        this.lifetimes,
      ));
    if (started) {
      return this.tokens(started.account, started.refreshToken, started.familyId);
    }
    // Refused, or a secret stored before SHA-256: checked, counted and upgraded the slow way.
    const account = await this.authenticateClient(client, ip);
    return this.respond(account, { companyId: account.companyId, apiClientId: account.id });
  }

  async password(
    username: string | undefined,
    password: string | undefined,
    ip: string,
  ): Promise<TokenResponseDto> {
    if (!username || !password) {
      throw new OAuthError('invalid_request', 'username and password are required for grant_type=password');
    }
    const attempt: LoginAttempt = { ip, account: `user:${username.toLowerCase()}` };
    await this.throttle.assertNotBlocked(attempt);
    const user =
      (await this.throttle.checkPassword(attempt, (queue) =>
        this.credentials.userFor(username, password, queue),
      )) ?? (await this.failed(attempt, new OAuthError('invalid_grant', 'Invalid username or password')));
    await this.throttle.recordSuccess(attempt);
    return this.respond(user, { companyId: user.companyId, userId: user.id });
  }

  /**
   * Both refresh forms. At `/oauth/refreshtoken` (`route: 'refreshtoken'`), the interface's route,
   * the refresh token alone is enough for every login, as the interface documents it: single use,
   * rotation, reuse detection and the absolute lifetime protect it; client credentials or a
   * client_id, when presented, must be those of the token's client. At `/oauth/token`
   * (`grant_type=refresh_token`) RFC 6749 §6 holds: a token issued to an API client is refreshed
   * only by that client, authenticated, and a browser app's only with its client_id. Checked before
   * the token is spent.
   */
  async refresh(
    refreshToken: string,
    client: ClientCredentials | undefined,
    ip: string,
    publicClientId: string | undefined,
    route: 'token' | 'refreshtoken',
  ): Promise<TokenResponseDto> {
    const app = await this.authorizationCodes.appOfRefreshToken(refreshToken);
    if (app !== undefined) {
      await this.assertPublicClientOf(app, client, publicClientId, route, ip);
    }
    const boundTo = (await this.refreshTokens.loginOf(refreshToken))?.subject.apiClientId;
    // A client_id without its secret is no authentication: for an API client's login it fails as one.
    const presented =
      client ??
      (boundTo !== undefined && publicClientId !== undefined
        ? { apiKey: publicClientId, secret: '' }
        : undefined);
    if (presented !== undefined || (boundTo !== undefined && route === 'token')) {
      const authenticated = await this.authenticateClient(presented, ip);
      if (boundTo !== undefined) {
        assertIssuedTo(boundTo, authenticated, 'The refresh token');
      }
    }
    let rotated: Awaited<ReturnType<RefreshTokensService['rotate']>>;
    try {
      rotated = await this.refreshTokens.rotate(refreshToken, this.lifetimes);
    } catch (error) {
      if (error instanceof OAuthError) {
        await this.failed({ ip }, error);
      }
      throw error;
    }
    const account = await this.currentAccountOf(rotated.subject);
    if (!account) {
      await this.refreshTokens.revokeFamily(rotated.subject.companyId, rotated.familyId);
      throw new OAuthError('invalid_grant', 'The account of this refresh token can no longer obtain tokens');
    }
    return this.tokens(account, rotated.refreshToken, rotated.familyId, app?.clientId);
  }

  /**
   * RFC 7009: ends the login of a refresh token or of an access token (its `sid`), i.e. every token
   * of that login; its access tokens are refused from then on (DatabaseTokenStatus). Credentials,
   * when given, are checked first; a token issued to an API client is revoked only by that client.
   * An unknown, expired or foreign token is answered like a revoked one (§2.2): no error.
   */
  async revoke(token: string, client: ClientCredentials | undefined, ip: string): Promise<void> {
    const presented = client && (await this.authenticateClient(client, ip));
    // Refresh tokens are opaque (no dot); access tokens are JWTs.
    const login = token.includes('.')
      ? await this.accessTokens.loginOf(token)
      : await this.refreshTokens.loginOf(token).then(
          (found) =>
            found && {
              familyId: found.familyId,
              companyId: found.subject.companyId,
              apiClientId: found.subject.apiClientId,
            },
        );
    if (!login) {
      return;
    }
    if (login.apiClientId !== undefined) {
      assertIssuedTo(
        login.apiClientId,
        presented ?? (await this.authenticateClient(undefined, ip)),
        'The token',
      );
    }
    await this.refreshTokens.revokeFamily(login.companyId, login.familyId);
  }

  /**
   * grant_type=authorization_code for a browser app: the code, checked and spent by
   * AuthorizationCodes, starts a login of its user like the password grant, bound to the app (its
   * refreshes need its client_id).
   */
  async authorizationCode(exchange: CodeExchange, ip: string): Promise<TokenResponseDto> {
    let grant: Awaited<ReturnType<AuthorizationCodes['exchange']>>;
    try {
      grant = await this.authorizationCodes.exchange(exchange, this.lifetimes);
    } catch (error) {
      if (error instanceof OAuthError) {
        await this.failed({ ip }, error);
      }
      throw error;
    }
    return this.tokens(grant.user, grant.refreshToken, grant.familyId, grant.clientId);
  }

  /**
   * A login started through a browser app (a public client: not authenticated) ends with the app.
   * At the token endpoint it is refreshed only with the app's client_id (RFC 6749 §6); at
   * /oauth/refreshtoken a client_id is optional but, when given, must be the app's.
   */
  private async assertPublicClientOf(
    app: LoginApp,
    client: ClientCredentials | undefined,
    clientId: string | undefined,
    route: 'token' | 'refreshtoken',
    ip: string,
  ): Promise<void> {
    if (app.revoked) {
      await this.failed(
        { ip },
        new OAuthError('invalid_grant', 'The app this login was started with has been revoked'),
      );
    }
    if (client !== undefined) {
      // A browser app has no secret: whatever is presented as one is not this app's.
      await this.failed(
        { ip, account: `key:${client.apiKey}` },
        new OAuthError('invalid_client', 'Client authentication failed'),
      );
    }
    if (clientId === undefined && route === 'token') {
      await this.failed(
        { ip },
        new OAuthError('invalid_request', 'client_id is required to refresh this token'),
      );
    }
    if (clientId !== undefined && clientId !== app.clientId) {
      await this.failed(
        { ip },
        new OAuthError('invalid_grant', 'The refresh token was issued to another client'),
      );
    }
  }

  private async authenticateClient(client: ClientCredentials | undefined, ip: string): Promise<TokenAccount> {
    if (!client) {
      return this.failed(
        { ip },
        new OAuthError(
          'invalid_client',
          'Client authentication required: HTTP Basic (api_key:client_secret), or client_id and client_secret in the form',
        ),
      );
    }
    const account = await this.credentials.apiClientFor(client.apiKey, client.secret);
    return (
      account ??
      this.failed(
        { ip, account: `key:${client.apiKey}` },
        new OAuthError('invalid_client', 'Client authentication failed'),
      )
    );
  }

  /** Counts the failure, then refuses: with 429 once the caller is past a limit, else `refusal`. */
  private async failed(attempt: LoginAttempt, refusal: OAuthError): Promise<never> {
    const retryAfter = await this.throttle.recordFailure(attempt);
    throw retryAfter > 0 ? new LoginThrottledError(retryAfter) : refusal;
  }

  private async respond(account: TokenAccount, refreshSubject: RefreshSubject): Promise<TokenResponseDto> {
    const { refreshToken, familyId } = await this.refreshTokens.start(refreshSubject, this.lifetimes);
    return this.tokens(account, refreshToken, familyId);
  }

  /** `appClientId`: the browser app a login was started with, if it was. */
  private async tokens(
    account: TokenAccount,
    refreshToken: string,
    familyId: string,
    appClientId?: string,
  ): Promise<TokenResponseDto> {
    const clientId = account.apiKey ?? appClientId ?? PASSWORD_GRANT_CLIENT_ID;
    return {
      access_token: await this.signer.sign(account, { sessionId: familyId, clientId }),
      token_type: 'Bearer',
      expires_in: this.signer.ttlSeconds,
      refresh_token: refreshToken,
    };
  }

  /** Role, status and epoch are read again on refresh: a demoted or removed account keeps no rights. */
  private currentAccountOf(subject: RefreshSubject): Promise<TokenAccount | undefined> {
    return subject.userId !== undefined
      ? this.credentials.activeUser(subject.companyId, subject.userId)
      : this.credentials.activeApiClient(subject.companyId, subject.apiClientId);
  }
}

function assertIssuedTo(apiClientId: number, client: TokenAccount, token: string): void {
  if (client.id !== apiClientId) {
    throw new OAuthError('invalid_grant', `${token} was issued to another client`);
  }
}
