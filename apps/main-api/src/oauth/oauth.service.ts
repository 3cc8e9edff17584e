import { Inject, Injectable } from '@nestjs/common';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';
import { CredentialsService } from './credentials.service';
import type { TokenResponseDto } from './dto/token-response.dto';
import { AccessTokenSigner, type AccessTokenSubject } from './keys/access-token-signer';
import { OAuthError } from './oauth.errors';
import { RefreshTokensService, type RefreshSubject } from './refresh-tokens/refresh-tokens.service';

/** The grants of the token endpoints (decisions §3). */
@Injectable()
export class OAuthService {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly signer: AccessTokenSigner,
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
  ) {}

  async clientCredentials(authorization: string | undefined): Promise<TokenResponseDto> {
    const { apiKey, secret } = parseBasic(authorization);
    const client = await this.credentials.apiClientFor(apiKey, secret);
    if (!client) {
      throw new OAuthError('invalid_client', 'Client authentication failed');
    }
    return this.respond(
      { subject: `client:${client.id}`, companyId: client.companyId, roleId: client.roleId },
      {
        companyId: client.companyId,
        apiClientId: client.id,
      },
    );
  }

  async password(username: string | undefined, password: string | undefined): Promise<TokenResponseDto> {
    if (!username || !password) {
      throw new OAuthError('invalid_request', 'username and password are required for grant_type=password');
    }
    const user = await this.credentials.userFor(username, password);
    if (!user) {
      throw new OAuthError('invalid_grant', 'Invalid username or password');
    }
    return this.respond(
      { subject: `user:${user.id}`, companyId: user.companyId, roleId: user.roleId },
      {
        companyId: user.companyId,
        userId: user.id,
      },
    );
  }

  async refresh(refreshToken: string): Promise<TokenResponseDto> {
    const rotated = await this.refreshTokens.rotate(refreshToken, this.env.REFRESH_TOKEN_TTL_SECONDS);
    const subject = await this.currentSubjectOf(rotated.subject);
    if (!subject) {
      await this.refreshTokens.revokeFamilyOf(rotated.refreshToken);
      throw new OAuthError('invalid_grant', 'The account of this refresh token can no longer obtain tokens');
    }
    return {
      access_token: this.signer.sign(subject),
      token_type: 'Bearer',
      expires_in: this.signer.ttlSeconds,
      refresh_token: rotated.refreshToken,
    };
  }

  private async respond(
    subject: AccessTokenSubject,
    refreshSubject: RefreshSubject,
  ): Promise<TokenResponseDto> {
    const refreshToken = await this.refreshTokens.issue(refreshSubject, this.env.REFRESH_TOKEN_TTL_SECONDS);
    return {
      access_token: this.signer.sign(subject),
      token_type: 'Bearer',
      expires_in: this.signer.ttlSeconds,
      refresh_token: refreshToken,
    };
  }

  /** Role and status are read again on refresh: a demoted or removed account does not keep its rights. */
  private async currentSubjectOf(subject: RefreshSubject): Promise<AccessTokenSubject | undefined> {
    if (subject.userId !== undefined) {
      const user = await this.credentials.activeUser(subject.userId);
      return user
        ? { subject: `user:${user.id}`, companyId: user.companyId, roleId: user.roleId }
        : undefined;
    }
    const client = await this.credentials.activeApiClient(subject.apiClientId);
    return client
      ? { subject: `client:${client.id}`, companyId: client.companyId, roleId: client.roleId }
      : undefined;
  }
}

function parseBasic(authorization: string | undefined): { apiKey: string; secret: string } {
  const match = authorization ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization) : null;
  if (!match) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication required: Authorization: Basic base64(api_key:client_secret)',
    );
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  // U+0000 cannot be an api_key (and would fail in PostgreSQL rather than here).
  if (separator <= 0 || separator > 200 || decoded.length > 500 || decoded.includes('\u0000')) {
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
  return { apiKey: decoded.slice(0, separator), secret: decoded.slice(separator + 1) };
}
