import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { preparedStatementName, readRows } from '@platform/database';
import { DataSource, IsNull, Not, type EntityManager } from 'typeorm';
import { accountOf, type AccountRow, type TokenAccount } from '../credentials.service';
import { OAuthError } from '../oauth.errors';
import { RefreshToken } from './refresh-token.entity';

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

// The client-credentials grant in one statement: find the API client by key and SHA-256 secret
// hash, and start its login. Comparing digests in SQL leaks nothing usable: an attacker cannot steer
// a digest's bytes. Prepared per pooled connection: planning it cost more than running it.
const START_CLIENT_LOGIN = `
  WITH client AS (
    SELECT c.id, c.company_id, c.role_id, coalesce(e.epoch, 0) AS epoch
      FROM api_clients c LEFT JOIN subject_token_epochs e ON e.subject = 'client:' || c.id
     WHERE c.api_key = $1 AND c.secret_hash = $2 AND c.revoked_at IS NULL
  ), issued AS (
    INSERT INTO refresh_tokens (company_id, family_id, token_hash, api_client_id, expires_at, family_expires_at)
    SELECT company_id, $3, $4, id, $5, $6 FROM client
  )
  SELECT id, company_id, role_id, epoch FROM client`;
const START_CLIENT_LOGIN_NAME = preparedStatementName(START_CLIENT_LOGIN);

/** Issues, rotates and revokes refresh tokens; only hashes are stored. */
@Injectable()
export class RefreshTokensService {
  constructor(private readonly dataSource: DataSource) {}

  /** The first token of a new login. */
  async start(subject: RefreshSubject, lifetimes: RefreshLifetimes): Promise<IssuedRefreshToken> {
    const familyExpiresAt = new Date(Date.now() + lifetimes.absoluteSeconds * 1000);
    return this.issue(this.dataSource.manager, subject, lifetimes, randomUUID(), familyExpiresAt);
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
    const [row] = await readRows<AccountRow>(
      this.dataSource.manager,
      START_CLIENT_LOGIN,
      [
        apiKey,
        secretHash,
        familyId,
        hashOf(token),
        new Date(now + Math.min(lifetimes.idleSeconds, lifetimes.absoluteSeconds) * 1000),
        new Date(now + lifetimes.absoluteSeconds * 1000),
      ],
      START_CLIENT_LOGIN_NAME,
    );
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
    const stored = await this.dataSource.getRepository(RefreshToken).findOne({
      where: { tokenHash: hashOf(token) },
      select: { familyId: true, companyId: true, userId: true, apiClientId: true },
    });
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
    const outcome = await this.dataSource.transaction(async (manager) => {
      const repository = manager.getRepository(RefreshToken);
      const stored = await repository.findOne({
        where: { tokenHash: hashOf(token) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!stored) {
        return { refused: 'Refresh token is invalid' } as const;
      }
      if (stored.usedAt) {
        await revokeFamily(manager, stored.familyId);
        return { refused: 'Refresh token was already used; every token of this login is revoked' } as const;
      }
      // The family, not the row: a revocation that ran while this login rotated may have missed the
      // token issued meanwhile, and the family's access tokens are revoked already (DatabaseTokenStatus).
      if (
        stored.revokedAt ||
        (await repository.existsBy({ familyId: stored.familyId, revokedAt: Not(IsNull()) }))
      ) {
        return { refused: 'Refresh token has been revoked' } as const;
      }
      if (Math.min(stored.expiresAt.getTime(), stored.familyExpiresAt.getTime()) <= Date.now()) {
        return { refused: 'Refresh token has expired' } as const;
      }
      await repository.update({ id: stored.id }, { usedAt: () => 'now()' });
      const subject = subjectOf(stored);
      const next = await this.issue(manager, subject, lifetimes, stored.familyId, stored.familyExpiresAt);
      return { subject, ...next };
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
  async revokeFamily(familyId: string): Promise<void> {
    await revokeFamily(this.dataSource.manager, familyId);
  }

  private async issue(
    manager: EntityManager,
    subject: RefreshSubject,
    lifetimes: RefreshLifetimes,
    familyId: string,
    familyExpiresAt: Date,
  ): Promise<IssuedRefreshToken> {
    const token = randomBytes(32).toString('base64url');
    // Plain SQL: once per token request, where TypeORM's insert builder cost more than the statement.
    await manager.query(
      `INSERT INTO refresh_tokens
         (company_id, family_id, token_hash, user_id, api_client_id, expires_at, family_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        subject.companyId,
        familyId,
        hashOf(token),
        subject.userId ?? null,
        subject.apiClientId ?? null,
        new Date(Math.min(Date.now() + lifetimes.idleSeconds * 1000, familyExpiresAt.getTime())),
        familyExpiresAt,
      ],
    );
    return { refreshToken: token, familyId };
  }
}

function subjectOf(stored: Pick<RefreshToken, 'companyId' | 'userId' | 'apiClientId'>): RefreshSubject {
  return stored.userId !== null
    ? { companyId: stored.companyId, userId: stored.userId }
    : { companyId: stored.companyId, apiClientId: stored.apiClientId as number };
}

async function revokeFamily(manager: EntityManager, familyId: string): Promise<void> {
  await manager
    .getRepository(RefreshToken)
    .createQueryBuilder()
    .update()
    .set({ revokedAt: () => 'now()' })
    .where('family_id = :familyId AND revoked_at IS NULL', { familyId })
    .execute();
}
