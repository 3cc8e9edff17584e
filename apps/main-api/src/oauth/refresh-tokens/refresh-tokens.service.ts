import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { accountOf, type TokenAccount } from '../credentials.service';
import { OAuthError } from '../oauth.errors';
import {
  RefreshTokensRepository,
  type NewRefreshToken,
  type RefreshTokenLogin,
} from './refresh-tokens.repository';

export type RefreshSubject = { companyId: number } & (
  { userId: number; apiClientId?: never } | { apiClientId: number; userId?: never }
);

export interface RefreshLifetimes {
  /** A token not used within this long expires. */
  idleSeconds: number;
  /** A login (family) ends this long after it started, however often it rotates. */
  absoluteSeconds: number;
}

/** A newly issued refresh token and the login (family) it belongs to. */
export interface IssuedRefreshToken {
  refreshToken: string;
  familyId: string;
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Issues, rotates and revokes refresh tokens; only hashes are stored (RefreshTokensRepository). */
@Injectable()
export class RefreshTokensService {
  constructor(private readonly tokens: RefreshTokensRepository) {}

  /** The first token of a new login. */
  async start(subject: RefreshSubject, lifetimes: RefreshLifetimes): Promise<IssuedRefreshToken> {
    const { refreshToken, stored } = this.newLogin(subject, lifetimes);
    await this.tokens.insert(stored);
    return { refreshToken, familyId: stored.familyId };
  }

  /**
   * The first token of a new login, not stored yet: for a grant that stores it in its own
   * transaction (the authorization-code exchange, atomic with spending the code).
   */
  newLogin(
    subject: RefreshSubject,
    lifetimes: RefreshLifetimes,
  ): { refreshToken: string; stored: NewRefreshToken } {
    const familyExpiresAt = new Date(Date.now() + lifetimes.absoluteSeconds * 1000);
    return nextToken(subject, lifetimes, randomUUID(), familyExpiresAt);
  }

  /**
   * A login for the API client with this key and secret hash (`sha256$…`), checked and started in
   * one statement: the client-credentials grant is the platform's busiest token request (a machine
   * caller per integration). Undefined when no client matches: a wrong secret, an unknown or revoked
   * key, or a secret still stored as scrypt; the caller then checks the slow way.
   */
  async startForClient(
    apiKey: string,
    secretHash: string,
    lifetimes: RefreshLifetimes,
  ): Promise<({ account: TokenAccount } & IssuedRefreshToken) | undefined> {
    const token = randomBytes(32).toString('base64url');
    const familyId = randomUUID();
    const now = Date.now();
    const row = await this.tokens.startForClient(apiKey, secretHash, {
      familyId,
      tokenHash: hashOf(token),
      expiresAt: new Date(now + Math.min(lifetimes.idleSeconds, lifetimes.absoluteSeconds) * 1000),
      familyExpiresAt: new Date(now + lifetimes.absoluteSeconds * 1000),
    });
    if (!row) {
      return undefined;
    }
    return { account: accountOf('client', row), refreshToken: token, familyId };
  }

  /**
   * The login a token belongs to and who it was issued to, without spending it: a client-credentials
   * family must be presented by its client, checked before the token is spent or revoked. Undefined
   * for an unknown token; a spent, revoked or expired one still names its login.
   */
  async loginOf(token: string): Promise<{ familyId: string; subject: RefreshSubject } | undefined> {
    const stored = await this.tokens.loginOf(hashOf(token));
    return stored ? { familyId: stored.familyId, subject: subjectOf(stored) } : undefined;
  }

  /**
   * Spends `token` and returns its subject and the next token of the family. A spent token revokes
   * the whole family (someone replayed it) and is refused, as is any token of a revoked family; the
   * row lock makes two concurrent uses of one token count as a reuse, never as two successes.
   */
  async rotate(
    token: string,
    lifetimes: RefreshLifetimes,
  ): Promise<{ subject: RefreshSubject } & IssuedRefreshToken> {
    const outcome = await this.tokens.withLocked(hashOf(token), async (locked) => {
      if (!locked) {
        return { refused: 'Refresh token is invalid' } as const;
      }
      const { stored } = locked;
      if (stored.usedAt) {
        await locked.revokeFamily();
        return { refused: 'Refresh token was already used; every token of this login is revoked' } as const;
      }
      // The family, not the row: a revocation that ran while this login rotated may have missed the
      // token issued meanwhile, and the family's access tokens are revoked already (DatabaseTokenStatus).
      if (stored.revokedAt || (await locked.familyRevoked())) {
        return { refused: 'Refresh token has been revoked' } as const;
      }
      if (Math.min(stored.expiresAt.getTime(), stored.familyExpiresAt.getTime()) <= Date.now()) {
        return { refused: 'Refresh token has expired' } as const;
      }
      await locked.spend();
      const subject = subjectOf(stored);
      const next = nextToken(subject, lifetimes, stored.familyId, stored.familyExpiresAt);
      await locked.issueNext(next.stored);
      return { subject, refreshToken: next.refreshToken, familyId: stored.familyId };
    });
    // The family revocation above is committed before the refusal is answered.
    if (outcome.refused !== undefined) {
      throw new OAuthError('invalid_grant', outcome.refused);
    }
    return outcome;
  }

  /**
   * Revokes every token of a login (reuse, RFC 7009 revocation); its access tokens stop counting
   * too (claim `sid`).
   */
  async revokeFamily(companyId: number, familyId: string): Promise<void> {
    await this.tokens.revokeFamily(companyId, familyId);
  }
}

/** A new token of the login, idle-limited within the login's end; only its hash is stored. */
function nextToken(
  subject: RefreshSubject,
  lifetimes: RefreshLifetimes,
  familyId: string,
  familyExpiresAt: Date,
): { refreshToken: string; stored: NewRefreshToken } {
  const refreshToken = randomBytes(32).toString('base64url');
  return {
    refreshToken,
    stored: {
      companyId: subject.companyId,
      familyId,
      tokenHash: hashOf(refreshToken),
      userId: subject.userId ?? null,
      apiClientId: subject.apiClientId ?? null,
      expiresAt: new Date(Math.min(Date.now() + lifetimes.idleSeconds * 1000, familyExpiresAt.getTime())),
      familyExpiresAt,
    },
  };
}

function subjectOf(stored: Omit<RefreshTokenLogin, 'familyId'>): RefreshSubject {
  return stored.userId !== null
    ? { companyId: stored.companyId, userId: stored.userId }
    : { companyId: stored.companyId, apiClientId: stored.apiClientId as number };
}
