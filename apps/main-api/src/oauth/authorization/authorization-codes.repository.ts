import { Injectable } from '@nestjs/common';
import { preparedStatementName, TenantScopes, type TenantScope } from '@platform/database';
import { RefreshToken } from '../refresh-tokens/refresh-token.entity';
import {
  insertRefreshToken,
  revokeRefreshFamily,
  type NewRefreshToken,
} from '../refresh-tokens/refresh-tokens.repository';
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

const FIND_BY_HASH = `
  SELECT id, company_id AS "companyId", app_id AS "appId", user_id AS "userId",
         redirect_uri AS "redirectUri", code_challenge AS "codeChallenge",
         expires_at AS "expiresAt", used_at AS "usedAt", family_id AS "familyId"
    FROM authorization_codes
   WHERE code_hash = $1`;

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

  /** The code with this hash as stored, read without a lock: who it was issued to. */
  async find(codeHash: string): Promise<StoredAuthorizationCode | undefined> {
    const [stored] = await this.authentication.sql.select<StoredAuthorizationCode>(FIND_BY_HASH, [codeHash]);
    return stored;
  }

  /**
   * Spends the code with this hash in one transaction under its row lock and answers it as it was
   * before (`usedAt` set: this is a replay); undefined for an unknown code. A first use stores the
   * login `issue` answers (none: refused, spent all the same) and binds the code to it; a replay
   * revokes the login of the first use. Both under the lock, so a replay arriving while the first
   * exchange runs waits for it and revokes what it issued (RFC 9700 §4.4).
   */
  spend(
    codeHash: string,
    issue: (stored: StoredAuthorizationCode) => NewRefreshToken | undefined,
  ): Promise<StoredAuthorizationCode | undefined> {
    return this.authentication.transaction(async (unit) => {
      const [stored] = await unit.sql.select<StoredAuthorizationCode>(`${FIND_BY_HASH} FOR UPDATE`, [
        codeHash,
      ]);
      if (!stored) {
        return undefined;
      }
      const company = unit.forCompany(stored.companyId);
      if (stored.usedAt) {
        if (stored.familyId !== null) {
          await revokeRefreshFamily(company.repository(RefreshToken), stored.familyId);
        }
        return stored;
      }
      const login = issue(stored);
      if (login) {
        await insertRefreshToken(company.sql, login);
      }
      await company
        .repository(AuthorizationCode)
        .updateWhere({ id: stored.id }, { usedAt: () => 'now()', familyId: login?.familyId ?? null });
      return stored;
    });
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
