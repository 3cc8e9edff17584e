import { Injectable } from '@nestjs/common';
import { TokenStatusSource, type Principal, type TokenToCheck } from '@platform/auth';
import { TokenStatusRepository, type TokenStatusRow } from './token-status.repository';

/**
 * Revocation as main-api's database knows it: a token is revoked when its subject's epoch moved on
 * since it was issued (role changed, user deleted, API client revoked: triggers of migration
 * AddTokenRevocation) or when its login's refresh-token family was revoked (reuse, logout). Asked
 * by the guard in the scope of the token's company (its verified claim: the principal is not the
 * request's yet at this point).
 */
@Injectable()
export class DatabaseTokenStatus extends TokenStatusSource {
  constructor(private readonly statuses: TokenStatusRepository) {
    super();
  }

  async isRevoked(principal: Principal): Promise<boolean> {
    const row = await this.statuses.statusOf(
      principal.companyId,
      principal.subject,
      principal.sessionId ?? null,
    );
    return isRevoked(principal, row);
  }

  /** One statement for all of them, whatever their companies. */
  override async revokedAmong(tokens: readonly TokenToCheck[]): Promise<boolean[]> {
    const rows = await this.statuses.statusesOf(
      tokens.map(({ principal }) => ({
        companyId: principal.companyId,
        subject: principal.subject,
        familyId: principal.sessionId ?? null,
      })),
    );
    return tokens.map(({ principal }, index) => isRevoked(principal, rows[index]));
  }
}

function isRevoked(principal: Principal, status: TokenStatusRow): boolean {
  return status.family_revoked || principal.epoch < status.epoch;
}
