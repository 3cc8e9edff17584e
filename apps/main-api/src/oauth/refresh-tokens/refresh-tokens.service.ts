import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
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
   * Who a token was issued to, without spending it: a client-credentials family must be presented
   * by its client, checked before the token is spent. Undefined for an unknown token.
   */
  async subjectOf(token: string): Promise<RefreshSubject | undefined> {
    const stored = await this.dataSource.getRepository(RefreshToken).findOne({
      where: { tokenHash: hashOf(token) },
      select: { companyId: true, userId: true, apiClientId: true },
    });
    return stored ? subjectOf(stored) : undefined;
  }

  /**
   * Spends `token` and returns its subject and the next token of the family. A spent or revoked
   * token revokes the whole family (someone replayed it) and is refused; the row lock makes two
   * concurrent uses of one token count as a reuse, never as two successes.
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
      if (stored.usedAt || stored.revokedAt) {
        await revokeFamily(manager, stored.familyId);
        return { refused: 'Refresh token was already used; every token of this login is revoked' } as const;
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

  /** Revokes every token of a login; its access tokens stop counting too (claim `sid`). */
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
    await manager.getRepository(RefreshToken).insert({
      companyId: subject.companyId,
      familyId,
      tokenHash: hashOf(token),
      userId: subject.userId ?? null,
      apiClientId: subject.apiClientId ?? null,
      expiresAt: new Date(Math.min(Date.now() + lifetimes.idleSeconds * 1000, familyExpiresAt.getTime())),
      familyExpiresAt,
    });
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
