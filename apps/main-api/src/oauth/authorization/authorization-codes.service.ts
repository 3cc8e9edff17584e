import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CredentialsService, type TokenAccount } from '../credentials.service';
import { OAuthError } from '../oauth.errors';
import {
  RefreshTokensService,
  type IssuedRefreshToken,
  type RefreshLifetimes,
} from '../refresh-tokens/refresh-tokens.service';
import {
  AuthorizationCodesRepository,
  type LoginApp,
  type StoredAuthorizationCode,
} from './authorization-codes.repository';
import { OAuthAppsRepository } from './oauth-apps.repository';
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

/** A code that passed every check: the user it issued tokens to, and the login it started. */
export interface ExchangedCode extends IssuedRefreshToken {
  user: TokenAccount;
  clientId: string;
}

/** Issues and exchanges authorization codes: single use, 60 s, bound to app, redirect URI, user and PKCE. */
@Injectable()
export class AuthorizationCodes {
  constructor(
    private readonly codes: AuthorizationCodesRepository,
    private readonly apps: OAuthAppsRepository,
    private readonly credentials: CredentialsService,
    private readonly refreshTokens: RefreshTokensService,
  ) {}

  /** A new code (256 random bits); only its SHA-256 is stored. */
  async issue(request: CodeToIssue): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.codes.insert({
      ...request,
      codeHash: sha256Hex(code),
      expiresAt: new Date(Date.now() + CODE_LIFETIME_SECONDS * 1000),
    });
    return code;
  }

  /**
   * Checks a code presented at the token endpoint, spends it whatever the outcome (a code is
   * presented once) and starts its user's login, bound to the app, in the same transaction. A code
   * presented again revokes the login its first exchange started (RFC 6749 §4.1.2: someone else
   * holds it), even while that exchange is still running (AuthorizationCodesRepository.spend).
   * Every refusal is `invalid_grant` (RFC 6749 §5.2), except an unknown client_id
   * (`invalid_client`) and missing fields (`invalid_request`).
   */
  async exchange(request: CodeExchange, lifetimes: RefreshLifetimes): Promise<ExchangedCode> {
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
    const codeHash = sha256Hex(code);
    // The user is looked up before the code's row is locked: no second connection while it is held.
    const found = await this.codes.find(codeHash);
    const user = found && (await this.credentials.activeUser(found.companyId, found.userId));
    let refused: string | undefined;
    let login: ReturnType<RefreshTokensService['newLogin']> | undefined;
    const stored = await this.codes.spend(codeHash, (locked) => {
      refused =
        refusalOf(locked, app.id, redirectUri, verifier) ??
        (user?.companyId === locked.companyId && user.id === locked.userId
          ? undefined
          : 'The user of this authorization code can no longer obtain tokens');
      if (refused === undefined) {
        login = this.refreshTokens.newLogin(
          { companyId: locked.companyId, userId: locked.userId },
          lifetimes,
        );
      }
      return login?.stored;
    });
    if (!stored) {
      throw new OAuthError('invalid_grant', 'The authorization code is invalid');
    }
    if (stored.usedAt) {
      throw new OAuthError(
        'invalid_grant',
        'The authorization code was already used; the tokens it issued are revoked',
      );
    }
    if (!login || !user) {
      throw new OAuthError('invalid_grant', refused ?? 'The authorization code is invalid');
    }
    return {
      user,
      clientId: app.clientId,
      refreshToken: login.refreshToken,
      familyId: login.stored.familyId,
    };
  }

  /**
   * The app whose login `refreshToken` belongs to, or undefined for a token of another grant.
   * RFC 6749 §6: a public client is not authenticated, but its refresh tokens are bound to it, so
   * the refresh must name its client_id.
   */
  appOfRefreshToken(refreshToken: string): Promise<LoginApp | undefined> {
    return this.codes.appOfRefreshToken(sha256Hex(refreshToken));
  }
}

/** Why a code, spent just now for the first time, issues no tokens; undefined when it may. */
function refusalOf(
  stored: StoredAuthorizationCode,
  appId: number,
  redirectUri: string,
  verifier: string,
): string | undefined {
  if (stored.expiresAt.getTime() <= Date.now()) {
    return 'The authorization code has expired';
  }
  if (stored.appId !== appId) {
    return 'The authorization code was issued to another client';
  }
  if (stored.redirectUri !== redirectUri) {
    return 'redirect_uri differs from the authorization request';
  }
  if (!verifierMatches(verifier, stored.codeChallenge)) {
    return 'code_verifier does not match the code_challenge';
  }
  return undefined;
}
