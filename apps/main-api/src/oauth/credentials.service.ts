import { Injectable, Logger } from '@nestjs/common';
import { TenantScopes, type TenantScope } from '@platform/database';
import { hashClientSecret, verifyClientSecret } from '../security/client-secrets';
import { hashPassword, verifyPassword } from '../security/password-hashing';
import type { AccessTokenSubject } from './keys/access-token-signer';

/** An account that may obtain tokens, as the token it gets describes it. */
export interface TokenAccount extends AccessTokenSubject {
  id: number;
}

/** An account row as the credential statements select it (`hash` only where a secret is checked). */
export interface AccountRow {
  id: number;
  company_id: number;
  role_id: number;
  epoch: number;
  hash?: string | null;
}

// Compared against when the API key does not exist, so the answer takes as long either way.
const DECOY_CLIENT_SECRET_HASH = hashClientSecret('decoy-secret-that-matches-nothing');

const CLIENT_COLUMNS = `c.id, c.company_id, c.role_id, coalesce(e.epoch, 0) AS epoch`;
const CLIENT_FROM = `api_clients c LEFT JOIN subject_token_epochs e ON e.subject = 'client:' || c.id`;
const USER_COLUMNS = `u.id, u.company_id, u.role_id, coalesce(e.epoch, 0) AS epoch`;
const USER_FROM = `users u LEFT JOIN subject_token_epochs e ON e.subject = 'user:' || u.id`;

/**
 * Checks credentials of the token endpoints and reads the accounts tokens are issued for, with
 * their current token epoch. Credential lookups are the one place that reads users and API clients
 * across companies (purpose `authentication`): the caller's company is what they establish; once it
 * is known, everything else runs in that company's scope.
 */
@Injectable()
export class CredentialsService {
  private readonly logger = new Logger(CredentialsService.name);
  // Verifying a password against a real hash when the account does not exist keeps response times
  // equal, so timing does not reveal which e-mails exist.
  private decoyPasswordHash?: Promise<string>;
  /** Before the caller's company is known: finding whose credentials these are. */
  private readonly authentication: TenantScope;

  constructor(private readonly scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  async apiClientFor(apiKey: string, secret: string): Promise<TokenAccount | undefined> {
    const [row] = await this.authentication.sql.select<AccountRow>(
      `SELECT ${CLIENT_COLUMNS}, c.secret_hash AS hash FROM ${CLIENT_FROM}
        WHERE c.api_key = $1 AND c.revoked_at IS NULL`,
      [apiKey],
    );
    const stored = row?.hash ?? DECOY_CLIENT_SECRET_HASH;
    const check = await verifyClientSecret(secret, stored);
    if (!row || !check.matches) {
      return undefined;
    }
    if (check.outdated) {
      // A secret stored before SHA-256: upgraded on its first successful use.
      await this.scopes
        .forCompany(row.company_id)
        .sql.execute('UPDATE api_clients SET secret_hash = $2 WHERE id = $1 AND secret_hash = $3', [
          row.id,
          hashClientSecret(secret),
          stored,
        ]);
    }
    return accountOf('client', row);
  }

  async userFor(email: string, password: string): Promise<TokenAccount | undefined> {
    const [row] = await this.authentication.sql.select<AccountRow>(
      `SELECT ${USER_COLUMNS}, u.password_hash AS hash FROM ${USER_FROM}
        WHERE lower(u.email) = lower($1) AND u.deleted_at IS NULL`,
      [email],
    );
    this.decoyPasswordHash ??= hashPassword('decoy-password-that-matches-nothing');
    const check = await verifyPassword(password, row?.hash ?? (await this.decoyPasswordHash));
    if (!row?.hash || !check.matches) {
      return undefined;
    }
    if (check.outdated) {
      this.upgradePasswordHash(row.company_id, row.id, row.hash, password);
    }
    return accountOf('user', row);
  }

  /** The API client of `companyId` a refresh token was issued to, if it may still obtain tokens. */
  async activeApiClient(companyId: number, id: number): Promise<TokenAccount | undefined> {
    const [row] = await this.scopes
      .forCompany(companyId)
      .sql.select<AccountRow>(
        `SELECT ${CLIENT_COLUMNS} FROM ${CLIENT_FROM} WHERE c.id = $1 AND c.revoked_at IS NULL`,
        [id],
      );
    return row ? accountOf('client', row) : undefined;
  }

  /** The user of `companyId` a token was issued to, if it may still obtain tokens (not deleted). */
  async activeUser(companyId: number, id: number): Promise<TokenAccount | undefined> {
    const [row] = await this.scopes
      .forCompany(companyId)
      .sql.select<AccountRow>(
        `SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [id],
      );
    return row ? accountOf('user', row) : undefined;
  }

  /** Rehashes with today's parameters after the answer is sent: the login does not wait for it. */
  private upgradePasswordHash(companyId: number, userId: number, stored: string, password: string): void {
    hashPassword(password)
      .then((upgraded) =>
        this.scopes
          .forCompany(companyId)
          .sql.execute('UPDATE users SET password_hash = $2 WHERE id = $1 AND password_hash = $3', [
            userId,
            upgraded,
            stored,
          ]),
      )
      .catch((error: unknown) => {
        // Busy or failed: the old hash still works, and the next login tries again.
        this.logger.warn(`password hash of user ${userId} not upgraded: ${String(error)}`);
      });
  }
}

export function accountOf(kind: 'user' | 'client', row: AccountRow): TokenAccount {
  return {
    id: row.id,
    subject: `${kind}:${row.id}`,
    companyId: row.company_id,
    roleId: row.role_id,
    epoch: row.epoch,
  };
}
