import { Injectable } from '@nestjs/common';
import {
  preparedStatementName,
  TenantScopes,
  type ScopedSql,
  type TenantRepository,
  type TenantScope,
} from '@platform/database';
import { IsNull, Not } from 'typeorm';
import type { AccountRow } from '../credentials.repository';
import { RefreshToken } from './refresh-token.entity';

/** A refresh token to store: only its SHA-256. */
export type NewRefreshToken = Pick<
  RefreshToken,
  'companyId' | 'familyId' | 'tokenHash' | 'userId' | 'apiClientId' | 'expiresAt' | 'familyExpiresAt'
>;

/** A stored token as rotation checks it. */
export type StoredRefreshToken = Omit<NewRefreshToken, 'tokenHash'> &
  Pick<RefreshToken, 'id' | 'usedAt' | 'revokedAt'>;

/** The login a token belongs to and who it was issued to. */
export type RefreshTokenLogin = Pick<RefreshToken, 'familyId' | 'companyId' | 'userId' | 'apiClientId'>;

/**
 * A token row locked for its rotation, in the transaction that found it, and what may be done to
 * it there: each in the scope of the token's company.
 */
export interface LockedRefreshToken {
  /** The row as it was when locked. */
  stored: StoredRefreshToken;
  /** Whether any token of its login was revoked. */
  familyRevoked(): Promise<boolean>;
  /** Marks it used: it is never accepted again. */
  spend(): Promise<void>;
  /** Stores the next token of its login. */
  issueNext(next: NewRefreshToken): Promise<void>;
  /** Revokes every token of its login. */
  revokeFamily(): Promise<void>;
}

// The client-credentials grant in one statement: find the API client by key and SHA-256 secret
// hash, and start its login. Comparing digests in SQL leaks nothing usable: an attacker cannot steer
// a digest's bytes. In the `authentication` scope: the client's company is what it finds.
const START_CLIENT_LOGIN = `
  WITH client AS (
    SELECT c.id, c.company_id, c.role_id, c.api_key, coalesce(e.epoch, 0) AS epoch
      FROM api_clients c LEFT JOIN subject_token_epochs e ON e.subject = 'client:' || c.id
     WHERE c.api_key = $1 AND c.secret_hash = $2 AND c.revoked_at IS NULL
  ), issued AS (
    INSERT INTO refresh_tokens (company_id, family_id, token_hash, api_client_id, expires_at, family_expires_at)
    SELECT company_id, $3, $4, id, $5, $6 FROM client
  )
  SELECT id, company_id, role_id, api_key, epoch FROM client`;
const START_CLIENT_LOGIN_NAME = preparedStatementName(START_CLIENT_LOGIN);

// The row lock makes two concurrent uses of one token one rotation and one reuse, never two successes.
const LOCK_BY_HASH = `
  SELECT id, company_id AS "companyId", family_id AS "familyId", user_id AS "userId",
         api_client_id AS "apiClientId", expires_at AS "expiresAt",
         family_expires_at AS "familyExpiresAt", used_at AS "usedAt", revoked_at AS "revokedAt"
    FROM refresh_tokens
   WHERE token_hash = $1
     FOR UPDATE`;

/** Refresh tokens, by their SHA-256: a token is found before its company is known. */
@Injectable()
export class RefreshTokensRepository {
  /** Finding a token's login before its company is known. */
  private readonly authentication: TenantScope;

  constructor(private readonly scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  /** Stores the first token of a new login. */
  insert(token: NewRefreshToken): Promise<void> {
    return insertRefreshToken(this.scopes.forCompany(token.companyId).sql, token);
  }

  /**
   * Finds the API client with this key and secret hash and stores the first token of its login, in
   * one statement; the client's account row, or undefined when none matches.
   */
  async startForClient(
    apiKey: string,
    secretHash: string,
    token: Omit<NewRefreshToken, 'companyId' | 'userId' | 'apiClientId'>,
  ): Promise<AccountRow | undefined> {
    // Data-modifying, so `execute`; prepared, as it is the busiest token request.
    const [row] = await this.authentication.sql.execute<AccountRow>(
      START_CLIENT_LOGIN,
      [apiKey, secretHash, token.familyId, token.tokenHash, token.expiresAt, token.familyExpiresAt],
      START_CLIENT_LOGIN_NAME,
    );
    return row;
  }

  /** The login of the token with this hash, spent, revoked or expired alike. */
  async loginOf(tokenHash: string): Promise<RefreshTokenLogin | undefined> {
    const [stored] = await this.authentication.sql.select<RefreshTokenLogin>(
      `SELECT family_id AS "familyId", company_id AS "companyId", user_id AS "userId",
              api_client_id AS "apiClientId"
         FROM refresh_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    return stored;
  }

  /**
   * Runs `work` in one transaction with the token of this hash locked (undefined when there is
   * none): found across companies, then changed in its company's scope, in the same transaction.
   * What `work` did is committed whatever it answers.
   */
  withLocked<T>(tokenHash: string, work: (token: LockedRefreshToken | undefined) => Promise<T>): Promise<T> {
    return this.authentication.transaction(async (unit) => {
      const [stored] = await unit.sql.select<StoredRefreshToken>(LOCK_BY_HASH, [tokenHash]);
      if (!stored) {
        return work(undefined);
      }
      const company = unit.forCompany(stored.companyId);
      const tokens = company.repository(RefreshToken);
      return work({
        stored,
        familyRevoked: () => tokens.exists({ familyId: stored.familyId, revokedAt: Not(IsNull()) }),
        spend: async () => {
          await tokens.updateWhere({ id: stored.id }, { usedAt: () => 'now()' });
        },
        issueNext: (next) => insertRefreshToken(company.sql, next),
        revokeFamily: () => revokeRefreshFamily(tokens, stored.familyId),
      });
    });
  }

  /** Revokes every token of a login of `companyId`. */
  revokeFamily(companyId: number, familyId: string): Promise<void> {
    return revokeRefreshFamily(this.scopes.forCompany(companyId).repository(RefreshToken), familyId);
  }
}

/** Stores a refresh token in the transaction or scope of `sql` (its company's). */
export async function insertRefreshToken(sql: ScopedSql, token: NewRefreshToken): Promise<void> {
  // Plain SQL: once per token request, where TypeORM's insert builder cost more than the statement.
  await sql.execute(
    `INSERT INTO refresh_tokens
         (company_id, family_id, token_hash, user_id, api_client_id, expires_at, family_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      token.companyId,
      token.familyId,
      token.tokenHash,
      token.userId,
      token.apiClientId,
      token.expiresAt,
      token.familyExpiresAt,
    ],
  );
}

/** Revokes every token of a login, through a repository of the login's company. */
export async function revokeRefreshFamily(
  tokens: TenantRepository<RefreshToken>,
  familyId: string,
): Promise<void> {
  await tokens.updateWhere({ familyId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
}
