import { Injectable } from '@nestjs/common';
import { preparedStatementName, TenantScopes } from '@platform/database';

/** What revocation knows of a token's subject and login. */
export interface TokenStatusRow {
  /** The subject's current token epoch (0 until it first moves). */
  epoch: number;
  /** Whether a token of the login (refresh-token family), or the browser app it was started with, was revoked. */
  family_revoked: boolean;
}

// A login started through a browser app ends with the app: its authorization code names the family.
const TOKEN_STATUS = `
  SELECT coalesce((SELECT epoch FROM subject_token_epochs WHERE subject = $1), 0) AS epoch,
         EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $2::uuid AND revoked_at IS NOT NULL)
         OR EXISTS (SELECT 1 FROM authorization_codes c JOIN oauth_apps a ON a.id = c.app_id
                     WHERE c.family_id = $2::uuid AND a.revoked_at IS NOT NULL)
           AS family_revoked`;
const TOKEN_STATUS_NAME = preparedStatementName(TOKEN_STATUS);

/** The revocation state of access tokens, as main-api's database keeps it. */
@Injectable()
export class TokenStatusRepository {
  constructor(private readonly scopes: TenantScopes) {}

  /**
   * One indexed statement, prepared once per connection (asked once per token and cache period),
   * in the scope of the token's company.
   */
  async statusOf(companyId: number, subject: string, familyId: string | null): Promise<TokenStatusRow> {
    const [row] = await this.scopes
      .forCompany(companyId)
      .sql.select<TokenStatusRow>(TOKEN_STATUS, [subject, familyId], TOKEN_STATUS_NAME);
    return row;
  }
}
