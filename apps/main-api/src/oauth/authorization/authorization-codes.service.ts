import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { preparedStatementName, TenantScopes, type TenantScope } from '@platform/database';
import { CredentialsService, type TokenAccount } from '../credentials.service';
import { OAuthError } from '../oauth.errors';
import { RefreshTokensService } from '../refresh-tokens/refresh-tokens.service';
import { AuthorizationCode } from './authorization-code.entity';
import { OAuthApps } from './oauth-apps.service';
import { verifierMatches } from './pkce';

/** RFC 6749 §4.1.2 recommends at most 10 minutes; a browser redirect takes about a second. */
export const CODE_LIFETIME_SECONDS = 60;

/** Both the code and a refresh token are 256 random bits: SHA-256 is enough to store them. */
const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export interface CodeToIssue {
  appId: number;
  companyId: number;
  userId: number;
  redirectUri: string;
  codeChallenge: string;
}

/** The form fields of `grant_type=authorization_code` (RFC 6749 §4.1.3, RFC 7636 §4.5). */
export interface CodeExchange {
  code?: string;
  client_id?: string;
  redirect_uri?: string;
  code_verifier?: string;
}

/** A code that passed every check: the user to issue tokens to, for this app. */
export interface ExchangedCode {
  user: TokenAccount;
  clientId: string;
  /** Pass to `bindLogin` with the family the tokens start. */
  codeId: string;
  /** The company of the code (and of its user). */
  companyId: number;
}

/** The app a login (refresh-token family) was started for through the code flow. */
export interface LoginApp {
  clientId: string;
  revoked: boolean;
}

const APP_OF_REFRESH_TOKEN = `
  SELECT a.client_id, a.revoked_at IS NOT NULL AS revoked
    FROM refresh_tokens r
    JOIN authorization_codes c ON c.family_id = r.family_id
    JOIN oauth_apps a ON a.id = c.app_id
   WHERE r.token_hash = $1`;
const APP_OF_REFRESH_TOKEN_NAME = preparedStatementName(APP_OF_REFRESH_TOKEN);

type Checked = { refused: string; revokeFamily?: string; companyId?: number } | { code: AuthorizationCode };

/** Issues and exchanges authorization codes: single use, 60 s, bound to app, redirect URI, user and PKCE. */
@Injectable()
export class AuthorizationCodes {
  /** A code is found by itself, before its company is known. */
  private readonly authentication: TenantScope;

  constructor(
    private readonly scopes: TenantScopes,
    private readonly apps: OAuthApps,
    private readonly credentials: CredentialsService,
    private readonly refreshTokens: RefreshTokensService,
  ) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  /** A new code (256 random bits); only its SHA-256 is stored. */
  async issue(request: CodeToIssue): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.scopes
      .forCompany(request.companyId)
      .repository(AuthorizationCode)
      .create({
        ...request,
        codeHash: sha256Hex(code),
        expiresAt: new Date(Date.now() + CODE_LIFETIME_SECONDS * 1000),
      });
    return code;
  }

  /**
   * Checks a code presented at the token endpoint and spends it, whatever the outcome: a code is
   * presented once. A code presented again revokes the login its first exchange started (RFC 6749
   * §4.1.2: someone else holds it). Every refusal is `invalid_grant` (RFC 6749 §5.2), except an
   * unknown client_id (`invalid_client`) and missing fields (`invalid_request`).
   */
  async exchange(request: CodeExchange): Promise<ExchangedCode> {
    const { code, client_id: clientId, redirect_uri: redirectUri, code_verifier: verifier } = request;
    if (!code || !clientId || !redirectUri || !verifier) {
      throw new OAuthError(
        'invalid_request',
        'code, client_id, redirect_uri and code_verifier are required for grant_type=authorization_code',
      );
    }
    const app = await this.apps.findActive(clientId);
    if (!app) {
      throw new OAuthError('invalid_client', 'Unknown client_id');
    }
    const checked = await this.authentication.transaction(async (unit): Promise<Checked> => {
      const repository = unit.manager.getRepository(AuthorizationCode);
      // The row lock makes two concurrent exchanges of one code one success and one reuse.
      const stored = await repository.findOne({
        where: { codeHash: sha256Hex(code) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!stored) {
        return { refused: 'The authorization code is invalid' };
      }
      if (stored.usedAt) {
        return {
          refused: 'The authorization code was already used; the tokens it issued are revoked',
          revokeFamily: stored.familyId ?? undefined,
          companyId: stored.companyId,
        };
      }
      await repository.update({ id: stored.id }, { usedAt: () => 'now()' });
      if (stored.expiresAt.getTime() <= Date.now()) {
        return { refused: 'The authorization code has expired' };
      }
      if (stored.appId !== app.id) {
        return { refused: 'The authorization code was issued to another client' };
      }
      if (stored.redirectUri !== redirectUri) {
        return { refused: 'redirect_uri differs from the authorization request' };
      }
      if (!verifierMatches(verifier, stored.codeChallenge)) {
        return { refused: 'code_verifier does not match the code_challenge' };
      }
      return { code: stored };
    });
    if ('refused' in checked) {
      if (checked.revokeFamily !== undefined && checked.companyId !== undefined) {
        await this.refreshTokens.revokeFamily(checked.companyId, checked.revokeFamily);
      }
      throw new OAuthError('invalid_grant', checked.refused);
    }
    const user = await this.credentials.activeUser(checked.code.companyId, checked.code.userId);
    if (!user || user.companyId !== checked.code.companyId) {
      throw new OAuthError(
        'invalid_grant',
        'The user of this authorization code can no longer obtain tokens',
      );
    }
    return { user, clientId: app.clientId, codeId: checked.code.id, companyId: checked.code.companyId };
  }

  /** Records the login (refresh-token family) an exchanged code started: it belongs to the app now. */
  async bindLogin(code: Pick<ExchangedCode, 'companyId' | 'codeId'>, familyId: string): Promise<void> {
    await this.scopes
      .forCompany(code.companyId)
      .repository(AuthorizationCode)
      .updateWhere({ id: code.codeId }, { familyId });
  }

  /**
   * The app whose login `refreshToken` belongs to, or undefined for a token of another grant.
   * RFC 6749 §6: a public client is not authenticated, but its refresh tokens are bound to it, so
   * the refresh must name its client_id. Reads refresh_tokens by the token's SHA-256, as stored there.
   */
  async appOfRefreshToken(refreshToken: string): Promise<LoginApp | undefined> {
    // Asked on every refresh: prepared once per connection.
    const [row] = await this.authentication.sql.select<{ client_id: string; revoked: boolean }>(
      APP_OF_REFRESH_TOKEN,
      [sha256Hex(refreshToken)],
      APP_OF_REFRESH_TOKEN_NAME,
    );
    return row ? { clientId: row.client_id, revoked: row.revoked } : undefined;
  }
}
