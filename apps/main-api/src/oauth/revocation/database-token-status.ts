import { Injectable } from '@nestjs/common';
import { TokenStatusSource, type Principal } from '@platform/auth';
import { preparedStatementName, TenantScopes } from '@platform/database';

const TOKEN_STATUS = `
  SELECT coalesce((SELECT epoch FROM subject_token_epochs WHERE subject = $1), 0) AS epoch,
         EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $2::uuid AND revoked_at IS NOT NULL)
           AS family_revoked`;
const TOKEN_STATUS_NAME = preparedStatementName(TOKEN_STATUS);

/**
 * Revocation as main-api's database knows it: a token is revoked when its subject's epoch moved on
 * since it was issued (role changed, user deleted, API client revoked: triggers of migration
 * AddTokenRevocation) or when its login's refresh-token family was revoked (reuse, logout). One
 * indexed statement, asked once per token and cache period by the guard, in the scope of the
 * token's company (its verified claim: the principal is not the request's yet at this point).
 */
@Injectable()
export class DatabaseTokenStatus extends TokenStatusSource {
  constructor(private readonly scopes: TenantScopes) {
    super();
  }

  async isRevoked(principal: Principal): Promise<boolean> {
    const [row] = await this.scopes.forCompany(principal.companyId).sql.select<{
      epoch: number;
      family_revoked: boolean;
    }>(TOKEN_STATUS, [principal.subject, principal.sessionId ?? null], TOKEN_STATUS_NAME);
    return row.family_revoked || principal.epoch < row.epoch;
  }
}
