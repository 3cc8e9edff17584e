import { Injectable } from '@nestjs/common';
import { TenantScopes } from '@platform/database';
import { BusinessRuleError, ConflictError } from '../errors/main-api.errors';

export type IdempotencyStart =
  { kind: 'first'; recordId: string } | { kind: 'replay'; statusCode: number; body: unknown };

/** Who sent the request: a key is the caller's own, within its company. */
export interface IdempotencyCaller {
  companyId: number;
  /** The token's subject, `user:<id>` or `client:<id>`. */
  subject: string;
}

/** How long a first answer is replayed (docs/spec/decisions.md §8); older records are free to reuse and pruned. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
const TTL = `make_interval(hours => ${IDEMPOTENCY_KEY_TTL_HOURS})`;

/** Reserve, complete or release an idempotency key of one caller, in the scope of its company. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly scopes: TenantScopes) {}

  async start(caller: IdempotencyCaller, key: string, requestHash: string): Promise<IdempotencyStart> {
    const { sql } = this.scopes.forCompany(caller.companyId);
    const owner = [caller.companyId, caller.subject, key];
    // Expired records are free to reuse; drop the one in the way, if any (the pruner may not have yet).
    await sql.execute(
      `DELETE FROM idempotency_records
        WHERE company_id = $1 AND subject = $2 AND key = $3 AND created_at < now() - ${TTL}`,
      owner,
    );
    const inserted = await sql.execute<{ id: string }>(
      `INSERT INTO idempotency_records (company_id, subject, key, request_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (company_id, subject, key) DO NOTHING RETURNING id`,
      [...owner, requestHash],
    );
    if (inserted.length > 0) {
      return { kind: 'first', recordId: inserted[0].id };
    }
    const [existing] = await sql.select<{
      request_hash: string;
      status_code: number | null;
      response_body: unknown;
    }>(
      `SELECT request_hash, status_code, response_body FROM idempotency_records
        WHERE company_id = $1 AND subject = $2 AND key = $3`,
      owner,
    );
    if (!existing) {
      // Removed between the two statements (its first request failed): the caller may retry.
      throw new ConflictError('A request with this Idempotency-Key just failed; retry it');
    }
    if (existing.request_hash !== requestHash) {
      throw new BusinessRuleError('This Idempotency-Key was already used with a different request');
    }
    if (existing.status_code === null) {
      throw new ConflictError('A request with this Idempotency-Key is still being processed; retry shortly');
    }
    return { kind: 'replay', statusCode: existing.status_code, body: existing.response_body };
  }

  async complete(
    caller: IdempotencyCaller,
    recordId: string,
    statusCode: number,
    body: unknown,
  ): Promise<void> {
    await this.scopes
      .forCompany(caller.companyId)
      .sql.execute('UPDATE idempotency_records SET status_code = $2, response_body = $3 WHERE id = $1', [
        recordId,
        statusCode,
        JSON.stringify(body ?? null),
      ]);
  }

  /** The first request failed: free the key so a retry runs again (nothing was created). */
  async release(caller: IdempotencyCaller, recordId: string): Promise<void> {
    await this.scopes
      .forCompany(caller.companyId)
      .sql.execute('DELETE FROM idempotency_records WHERE id = $1', [recordId]);
  }
}
