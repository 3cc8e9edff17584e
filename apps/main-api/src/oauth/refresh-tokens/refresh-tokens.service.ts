import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OAuthError } from '../oauth.errors';
import { RefreshToken } from './refresh-token.entity';

export type RefreshSubject = { companyId: number } & (
  { userId: number; apiClientId?: never } | { apiClientId: number; userId?: never }
);

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Issues, rotates and revokes refresh tokens; only hashes are stored. */
@Injectable()
export class RefreshTokensService {
  constructor(private readonly dataSource: DataSource) {}

  /** A new token; in the given family when rotating, else a new family (a new login). */
  async issue(
    subject: RefreshSubject,
    ttlSeconds: number,
    familyId: string = randomUUID(),
    manager?: EntityManager,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await (manager ?? this.dataSource.manager).getRepository(RefreshToken).insert({
      companyId: subject.companyId,
      familyId,
      tokenHash: hashOf(token),
      userId: subject.userId ?? null,
      apiClientId: subject.apiClientId ?? null,
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    });
    return token;
  }

  /**
   * Spends `token` and returns its subject and the next token of the family. A spent or revoked
   * token revokes the whole family (someone replayed it) and is refused; the row lock makes two
   * concurrent uses of one token count as a reuse, never as two successes.
   */
  async rotate(
    token: string,
    ttlSeconds: number,
  ): Promise<{ subject: RefreshSubject; refreshToken: string }> {
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
        await repository
          .createQueryBuilder()
          .update()
          .set({ revokedAt: () => 'now()' })
          .where('family_id = :familyId AND revoked_at IS NULL', { familyId: stored.familyId })
          .execute();
        return { refused: 'Refresh token was already used; every token of this login is revoked' } as const;
      }
      if (stored.expiresAt.getTime() <= Date.now()) {
        return { refused: 'Refresh token has expired' } as const;
      }
      await repository.update({ id: stored.id }, { usedAt: () => 'now()' });
      const subject: RefreshSubject =
        stored.userId !== null
          ? { companyId: stored.companyId, userId: stored.userId }
          : { companyId: stored.companyId, apiClientId: stored.apiClientId as number };
      const refreshToken = await this.issue(subject, ttlSeconds, stored.familyId, manager);
      return { subject, refreshToken };
    });
    // The family revocation above is committed before the refusal is answered.
    if (outcome.refused !== undefined) {
      throw new OAuthError('invalid_grant', outcome.refused);
    }
    return outcome;
  }

  /** Revokes every live token of a family (e.g. when its subject can no longer log in). */
  async revokeFamilyOf(token: string): Promise<void> {
    await this.dataSource
      .getRepository(RefreshToken)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where(
        'family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = :hash) AND revoked_at IS NULL',
        { hash: hashOf(token) },
      )
      .execute();
  }
}
