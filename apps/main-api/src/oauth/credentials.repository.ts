import { Injectable } from '@nestjs/common';
import { TenantScopes, type TenantScope } from '@platform/database';

/** An account row as the credential statements select it (`hash` only where a secret is checked). */
export interface AccountRow {
  id: number;
  company_id: number;
  role_id: number;
  epoch: number;
  /** An API client's key: the `client_id` of its tokens. */
  api_key?: string;
  hash?: string | null;
}

const CLIENT_COLUMNS = `c.id, c.company_id, c.role_id, c.api_key, coalesce(e.epoch, 0) AS epoch`;
const CLIENT_FROM = `api_clients c LEFT JOIN subject_token_epochs e ON e.subject = 'client:' || c.id`;
const USER_COLUMNS = `u.id, u.company_id, u.role_id, coalesce(e.epoch, 0) AS epoch`;
const USER_FROM = `users u LEFT JOIN subject_token_epochs e ON e.subject = 'user:' || u.id`;

/**
 * The accounts tokens are issued for, with their current token epoch. Looking an account up by its
 * credentials is the one read of users and API clients across companies (purpose `authentication`):
 * the caller's company is what it establishes; everything else runs in that company's scope.
 */
@Injectable()
export class CredentialsRepository {
  /** Before the caller's company is known: finding whose credentials these are. */
  private readonly authentication: TenantScope;

  constructor(private readonly scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  /** The API client with this key, unless revoked, with its stored secret hash. */
  async apiClientByKey(apiKey: string): Promise<AccountRow | undefined> {
    const [row] = await this.authentication.sql.select<AccountRow>(
      `SELECT ${CLIENT_COLUMNS}, c.secret_hash AS hash FROM ${CLIENT_FROM}
        WHERE c.api_key = $1 AND c.revoked_at IS NULL`,
      [apiKey],
    );
    return row;
  }

  /** The user with this e-mail (any case), unless deleted, with its stored password hash. */
  async userByEmail(email: string): Promise<AccountRow | undefined> {
    const [row] = await this.authentication.sql.select<AccountRow>(
      `SELECT ${USER_COLUMNS}, u.password_hash AS hash FROM ${USER_FROM}
        WHERE lower(u.email) = lower($1) AND u.deleted_at IS NULL`,
      [email],
    );
    return row;
  }

  /** The API client `id` of `companyId`, unless revoked. */
  activeApiClient(companyId: number, id: number): Promise<AccountRow | undefined> {
    return this.accountOf(
      companyId,
      `SELECT ${CLIENT_COLUMNS} FROM ${CLIENT_FROM} WHERE c.id = $1 AND c.revoked_at IS NULL`,
      id,
    );
  }

  /** The user `id` of `companyId`, unless deleted. */
  activeUser(companyId: number, id: number): Promise<AccountRow | undefined> {
    return this.accountOf(
      companyId,
      `SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = $1 AND u.deleted_at IS NULL`,
      id,
    );
  }

  /** Stores the client's secret under a new hash, unless it changed since `stored` was read. */
  replaceClientSecretHash(companyId: number, id: number, stored: string, upgraded: string): Promise<void> {
    return this.replaceHash(companyId, 'api_clients', 'secret_hash', id, { stored, upgraded });
  }

  /** Stores the user's password under a new hash, unless it changed since `stored` was read. */
  replacePasswordHash(companyId: number, id: number, stored: string, upgraded: string): Promise<void> {
    return this.replaceHash(companyId, 'users', 'password_hash', id, { stored, upgraded });
  }

  private async accountOf(companyId: number, statement: string, id: number): Promise<AccountRow | undefined> {
    const [row] = await this.scopes.forCompany(companyId).sql.select<AccountRow>(statement, [id]);
    return row;
  }

  private async replaceHash(
    companyId: number,
    table: 'api_clients' | 'users',
    column: 'secret_hash' | 'password_hash',
    id: number,
    hashes: { stored: string; upgraded: string },
  ): Promise<void> {
    await this.scopes
      .forCompany(companyId)
      .sql.execute(`UPDATE ${table} SET ${column} = $2 WHERE id = $1 AND ${column} = $3`, [
        id,
        hashes.upgraded,
        hashes.stored,
      ]);
  }
}
