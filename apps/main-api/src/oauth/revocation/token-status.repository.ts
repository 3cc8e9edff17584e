import { Injectable } from '@nestjs/common';
import { preparedStatementName, TenantScopes, type TenantScope } from '@platform/database';

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

// The same answer for many logins of any companies at once, in their order: each login's family is
// looked for in its own company only (the cross-company scope sees every company's rows).
const TOKEN_STATUSES = `
  SELECT coalesce(e.epoch, 0) AS epoch,
         EXISTS (SELECT 1 FROM refresh_tokens r
                  WHERE r.family_id = l.family_id AND r.company_id = l.company_id AND r.revoked_at IS NOT NULL)
         OR EXISTS (SELECT 1 FROM authorization_codes c JOIN oauth_apps a ON a.id = c.app_id
                     WHERE c.family_id = l.family_id AND c.company_id = l.company_id AND a.revoked_at IS NOT NULL)
           AS family_revoked
    FROM unnest($1::integer[], $2::text[], $3::uuid[]) WITH ORDINALITY AS l(company_id, subject, family_id, position)
    LEFT JOIN subject_token_epochs e ON e.subject = l.subject
   ORDER BY l.position`;
const TOKEN_STATUSES_NAME = preparedStatementName(TOKEN_STATUSES);

/** A login whose revocation state is asked for. */
export interface TokenLogin {
  companyId: number;
  subject: string;
  familyId: string | null;
}

/** The revocation state of access tokens, as main-api's database keeps it. */
@Injectable()
export class TokenStatusRepository {
  private readonly authentication: TenantScope;

  constructor(private readonly scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

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

  /**
   * The states of many logins, of any companies, in their order: one statement whatever their
   * number (the change streams' periodic check of every login of a replica).
   */
  async statusesOf(logins: readonly TokenLogin[]): Promise<TokenStatusRow[]> {
    if (logins.length === 0) {
      return [];
    }
    return this.authentication.sql.select<TokenStatusRow>(
      TOKEN_STATUSES,
      [logins.map((l) => l.companyId), logins.map((l) => l.subject), logins.map((l) => l.familyId)],
      TOKEN_STATUSES_NAME,
    );
  }
}
