import { Injectable } from '@nestjs/common';
import { preparedStatementName, TenantScopes, type TenantScope } from '@platform/database';
import { AuthorizationCode } from './authorization-code.entity';

/** A code to store: only its SHA-256. */
export type NewAuthorizationCode = Pick<
  AuthorizationCode,
  'appId' | 'companyId' | 'userId' | 'redirectUri' | 'codeChallenge' | 'codeHash' | 'expiresAt'
>;

/** A stored code as its exchange checks it. */
export type StoredAuthorizationCode = Omit<NewAuthorizationCode, 'codeHash'> &
  Pick<AuthorizationCode, 'id' | 'usedAt' | 'familyId'>;

/** The app a login (refresh-token family) was started for through the code flow. */
export interface LoginApp {
  clientId: string;
  revoked: boolean;
}

// The row lock makes two concurrent exchanges of one code one success and one reuse.
const LOCK_BY_HASH = `
  SELECT id, company_id AS "companyId", app_id AS "appId", user_id AS "userId",
         redirect_uri AS "redirectUri", code_challenge AS "codeChallenge",
         expires_at AS "expiresAt", used_at AS "usedAt", family_id AS "familyId"
    FROM authorization_codes
   WHERE code_hash = $1
     FOR UPDATE`;

const APP_OF_REFRESH_TOKEN = `
  SELECT a.client_id, a.revoked_at IS NOT NULL AS revoked
    FROM refresh_tokens r
    JOIN authorization_codes c ON c.family_id = r.family_id
    JOIN oauth_apps a ON a.id = c.app_id
   WHERE r.token_hash = $1`;
const APP_OF_REFRESH_TOKEN_NAME = preparedStatementName(APP_OF_REFRESH_TOKEN);

/** Authorization codes, by their SHA-256: a code is found by itself, before its company is known. */
@Injectable()
export class AuthorizationCodesRepository {
  private readonly authentication: TenantScope;

  constructor(private readonly scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  async insert(code: NewAuthorizationCode): Promise<void> {
    await this.scopes.forCompany(code.companyId).repository(AuthorizationCode).create(code);
  }

  /**
   * Marks the code with this hash used, unless it was already, and answers it as it was before
   * (`usedAt` set: this is a second use); undefined for an unknown code. One transaction.
   */
  spend(codeHash: string): Promise<StoredAuthorizationCode | undefined> {
    return this.authentication.transaction(async (unit) => {
      const [stored] = await unit.sql.select<StoredAuthorizationCode>(LOCK_BY_HASH, [codeHash]);
      if (stored && !stored.usedAt) {
        await unit
          .forCompany(stored.companyId)
          .repository(AuthorizationCode)
          .updateWhere({ id: stored.id }, { usedAt: () => 'now()' });
      }
      return stored;
    });
  }

  /** Records the login (refresh-token family) the exchange of a code started. */
  async bindLogin(companyId: number, codeId: string, familyId: string): Promise<void> {
    await this.scopes
      .forCompany(companyId)
      .repository(AuthorizationCode)
      .updateWhere({ id: codeId }, { familyId });
  }

  /**
   * The app whose login the refresh token with this hash belongs to, or undefined for a token of
   * another grant.
   */
  async appOfRefreshToken(tokenHash: string): Promise<LoginApp | undefined> {
    // Asked on every refresh: prepared once per connection.
    const [row] = await this.authentication.sql.select<{ client_id: string; revoked: boolean }>(
      APP_OF_REFRESH_TOKEN,
      [tokenHash],
      APP_OF_REFRESH_TOKEN_NAME,
    );
    return row ? { clientId: row.client_id, revoked: row.revoked } : undefined;
  }
}
