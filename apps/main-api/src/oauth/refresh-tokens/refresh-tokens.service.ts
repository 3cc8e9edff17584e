import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { preparedStatementName, TenantScopes, type TenantScope } from '@platform/database';
import { IsNull, Not } from 'typeorm';
import { accountOf, type AccountRow, type TokenAccount } from '../credentials.service';
import { OAuthError } from '../oauth.errors';
import { RefreshToken } from './refresh-token.entity';

export type RefreshSubject = { companyId: number } & (
  { userId: number; apiClientId?: never } | { apiClientId: number; userId?: never }
);

export interface RefreshLifetimes {
  /** A token not used within this long expires. */
  idleSeconds: number;
  /** A login (family) ends this long after it started, however often it rotates. */
  absoluteSeconds: number;
}

/** A newly issued refresh token and the login (family) it belongs to. */
export interface IssuedRefreshToken {
  refreshToken: string;
  familyId: string;
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

// The client-credentials grant in one statement: find the API client by key and SHA-256 secret
// hash, and start its login. Comparing digests in SQL leaks nothing usable: an attacker cannot steer
// a digest's bytes. In the `authentication` scope: the client's company is what it finds.
const START_CLIENT_LOGIN = `
  WITH client AS (
    SELECT c.id, c.company_id, c.role_id, coalesce(e.epoch, 0) AS epoch
      FROM api_clients c LEFT JOIN subject_token_epochs e ON e.subject = 'client:' || c.id
     WHERE c.api_key = $1 AND c.secret_hash = $2 AND c.revoked_at IS NULL
  ), issued AS (
    INSERT INTO refresh_tokens (company_id, family_id, token_hash, api_client_id, expires_at, family_expires_at)
    SELECT company_id, $3, $4, id, $5, $6 FROM client
  )
  SELECT id, company_id, role_id, epoch FROM client`;
const START_CLIENT_LOGIN_NAME = preparedStatementName(START_CLIENT_LOGIN);

interface StoredLogin {
  family_id: string;
  company_id: number;
  user_id: number | null;
  api_client_id: number | null;
}

/** Issues, rotates and revokes refresh tokens; only hashes are stored. */
@Injectable()
export class RefreshTokensService {
  /** Finding a token's login before its company is known. */
  private readonly authentication: TenantScope;

  constructor(private readonly scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  /** The first token of a new login. */
  async start(subject: RefreshSubject, lifetimes: RefreshLifetimes): Promise<IssuedRefreshToken> {
    const familyExpiresAt = new Date(Date.now() + lifetimes.absoluteSeconds * 1000);
    return issue(
      (text, values) => this.scopes.forCompany(subject.companyId).sql.execute(text, values),
      subject,
      lifetimes,
      randomUUID(),
      familyExpiresAt,
    );
  }

  /**
   * A login for the API client with this key and secret hash (`sha256$…`), checked and started in
   * one statement: the client-credentials grant is the platform's busiest token request (a machine
   * caller per integration). Undefined when no client matches: a wrong secret, an unknown or revoked
   * key, or a secret still stored as scrypt; the caller then checks the slow way.
   */
  async startForClient(
    apiKey: string,
    secretHash: string,
    lifetimes: RefreshLifetimes,
  ): Promise<({ account: TokenAccount } & IssuedRefreshToken) | undefined> {
    const token = randomBytes(32).toString('base64url');
    const familyId = randomUUID();
    const now = Date.now();
    // Data-modifying, so `execute`; prepared, as it is the busiest token request.
    const [row] = await this.authentication.sql.execute<AccountRow>(
      START_CLIENT_LOGIN,
      [
        apiKey,
        secretHash,
        familyId,
        hashOf(token),
        new Date(now + Math.min(lifetimes.idleSeconds, lifetimes.absoluteSeconds) * 1000),
        new Date(now + lifetimes.absoluteSeconds * 1000),
      ],
      START_CLIENT_LOGIN_NAME,
    );
    if (!row) {
      return undefined;
    }
    return { account: accountOf('client', row), refreshToken: token, familyId };
  }

  /**
   * The login a token belongs to and who it was issued to, without spending it: a client-credentials
   * family must be presented by its client, checked before the token is spent or revoked. Undefined
   * for an unknown token; a spent, revoked or expired one still names its login.
   */
  async loginOf(token: string): Promise<{ familyId: string; subject: RefreshSubject } | undefined> {
    const [stored] = await this.authentication.sql.select<StoredLogin>(
      'SELECT family_id, company_id, user_id, api_client_id FROM refresh_tokens WHERE token_hash = $1',
      [hashOf(token)],
    );
    return stored
      ? {
          familyId: stored.family_id,
          subject: subjectOf({
            companyId: stored.company_id,
            userId: stored.user_id,
            apiClientId: stored.api_client_id,
          }),
        }
      : undefined;
  }

  /**
   * Spends `token` and returns its subject and the next token of the family. A spent token revokes
   * the whole family (someone replayed it) and is refused, as is any token of a revoked family; the
   * row lock makes two concurrent uses of one token count as a reuse, never as two successes.
   */
  async rotate(
    token: string,
    lifetimes: RefreshLifetimes,
  ): Promise<{ subject: RefreshSubject } & IssuedRefreshToken> {
    // Found across companies (the token is all there is), then changed in its company's scope, in
    // the same transaction: each statement carries the settings of the scope it is run in.
    const outcome = await this.authentication.transaction(async (unit) => {
      const repository = unit.manager.getRepository(RefreshToken);
      const stored = await repository.findOne({
        where: { tokenHash: hashOf(token) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!stored) {
        return { refused: 'Refresh token is invalid' } as const;
      }
      const company = this.scopes.forCompany(stored.companyId);
      // On the transaction's connection, with the company's settings.
      const execute: Execute = (text, values) => company.run(() => unit.manager.query(text, values));
      if (stored.usedAt) {
        await revokeFamily(execute, stored.companyId, stored.familyId);
        return { refused: 'Refresh token was already used; every token of this login is revoked' } as const;
      }
      // The family, not the row: a revocation that ran while this login rotated may have missed the
      // token issued meanwhile, and the family's access tokens are revoked already (DatabaseTokenStatus).
      return company.run(async () => {
        if (
          stored.revokedAt ||
          (await repository.existsBy({
            companyId: stored.companyId,
            familyId: stored.familyId,
            revokedAt: Not(IsNull()),
          }))
        ) {
          return { refused: 'Refresh token has been revoked' } as const;
        }
        if (Math.min(stored.expiresAt.getTime(), stored.familyExpiresAt.getTime()) <= Date.now()) {
          return { refused: 'Refresh token has expired' } as const;
        }
        await repository.update({ id: stored.id }, { usedAt: () => 'now()' });
        const subject = subjectOf(stored);
        const next = await issue(execute, subject, lifetimes, stored.familyId, stored.familyExpiresAt);
        return { subject, ...next };
      });
    });
    // The family revocation above is committed before the refusal is answered.
    if (outcome.refused !== undefined) {
      throw new OAuthError('invalid_grant', outcome.refused);
    }
    return outcome;
  }

  /**
   * Revokes every token of a login (reuse, RFC 7009 revocation); its access tokens stop counting
   * too (claim `sid`).
   */
  async revokeFamily(companyId: number, familyId: string): Promise<void> {
    await revokeFamily(
      (text, values) => this.scopes.forCompany(companyId).sql.execute(text, values),
      companyId,
      familyId,
    );
  }
}

/** Runs one statement in the scope of the family's company. */
type Execute = (text: string, values: unknown[]) => Promise<unknown>;

async function issue(
  execute: Execute,
  subject: RefreshSubject,
  lifetimes: RefreshLifetimes,
  familyId: string,
  familyExpiresAt: Date,
): Promise<IssuedRefreshToken> {
  const token = randomBytes(32).toString('base64url');
  // Plain SQL: once per token request, where TypeORM's insert builder cost more than the statement.
  await execute(
    `INSERT INTO refresh_tokens
         (company_id, family_id, token_hash, user_id, api_client_id, expires_at, family_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      subject.companyId,
      familyId,
      hashOf(token),
      subject.userId ?? null,
      subject.apiClientId ?? null,
      new Date(Math.min(Date.now() + lifetimes.idleSeconds * 1000, familyExpiresAt.getTime())),
      familyExpiresAt,
    ],
  );
  return { refreshToken: token, familyId };
}

function subjectOf(stored: Pick<RefreshToken, 'companyId' | 'userId' | 'apiClientId'>): RefreshSubject {
  return stored.userId !== null
    ? { companyId: stored.companyId, userId: stored.userId }
    : { companyId: stored.companyId, apiClientId: stored.apiClientId as number };
}

async function revokeFamily(execute: Execute, companyId: number, familyId: string): Promise<void> {
  await execute(
    'UPDATE refresh_tokens SET revoked_at = now() WHERE company_id = $1 AND family_id = $2 AND revoked_at IS NULL',
    [companyId, familyId],
  );
}
