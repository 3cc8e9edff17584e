import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CredentialsService, type TokenAccount } from '../credentials.service';
import { OAuthError } from '../oauth.errors';
import { RefreshTokensService } from '../refresh-tokens/refresh-tokens.service';
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

/** A code that passed every check: the user to issue tokens to, for this app. */
export interface ExchangedCode {
  user: TokenAccount;
  clientId: string;
  /** Pass to `bindLogin` with the family the tokens start. */
  codeId: string;
  /** The company of the code (and of its user). */
  companyId: number;
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
    // Spent whatever the checks below answer: a code is presented once.
    const stored = await this.codes.spend(sha256Hex(code));
    if (!stored) {
      throw new OAuthError('invalid_grant', 'The authorization code is invalid');
    }
    if (stored.usedAt) {
      if (stored.familyId !== null) {
        await this.refreshTokens.revokeFamily(stored.companyId, stored.familyId);
      }
      throw new OAuthError(
        'invalid_grant',
        'The authorization code was already used; the tokens it issued are revoked',
      );
    }
    const refused = refusalOf(stored, app.id, redirectUri, verifier);
    if (refused) {
      throw new OAuthError('invalid_grant', refused);
    }
    const user = await this.credentials.activeUser(stored.companyId, stored.userId);
    if (!user || user.companyId !== stored.companyId) {
      throw new OAuthError(
        'invalid_grant',
        'The user of this authorization code can no longer obtain tokens',
      );
    }
    return { user, clientId: app.clientId, codeId: stored.id, companyId: stored.companyId };
  }

  /** Records the login (refresh-token family) an exchanged code started: it belongs to the app now. */
  async bindLogin(code: Pick<ExchangedCode, 'companyId' | 'codeId'>, familyId: string): Promise<void> {
    await this.codes.bindLogin(code.companyId, code.codeId, familyId);
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
