import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { batchedRead } from '../tenancy/read-batcher';
import { currentTenantSettings } from '../tenancy/tenant-context';

/**
 * The name under which a fixed statement is prepared on each pooled connection (see `readRows`).
 * Derived from the text, so one text always has one name and two texts never share one.
 */
export function preparedStatementName(sql: string): string {
  return `read_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
}

/** A statement that only reads: SELECT, or WITH without a data-modifying part. */
const READ_ONLY = /^\s*(SELECT|WITH)\b/i;
const MODIFIES =
  /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|COPY|CALL|DO|CREATE|ALTER|DROP|GRANT|REVOKE|SET|RESET)\b/i;

/**
 * Runs a read statement and answers its rows, as `manager.query` does. Outside a transaction the
 * statement goes straight to the driver's pool: TypeORM's path (a query runner object per
 * statement, its connect and release, before/after-query broadcasts, result wrapping) cost about
 * as much CPU as the driver itself on the hot reads (bench/README.md). Failures are still
 * TypeORM's QueryFailedError, so the error body and the logs do not change. Inside a transaction
 * the transaction's own connection runs it.
 *
 * `prepared` (from `preparedStatementName`), for a statement whose text never changes: each pooled
 * connection parses and plans it once and then only binds and executes it. PostgreSQL spent more
 * CPU parsing and planning the hot reads than running them (bench/README.md, round 3). Never for
 * text built per call (filters), which would prepare without bound. A prepared read of a unit of
 * work also shares its round trip with the unit's other prepared reads made in the same turn of the
 * event loop (`batchedRead`).
 */
export function readRows<Row>(
  manager: EntityManager,
  sql: string,
  values: unknown[],
  prepared?: string,
): Promise<Row[]> {
  if (!READ_ONLY.test(sql) || (/^\s*WITH\b/i.test(sql) && MODIFIES.test(sql))) {
    throw new Error('readRows runs reads only (SELECT, or WITH without a data-modifying statement)');
  }
  const settings = currentTenantSettings();
  // Only fixed statements, the point reads of a request: a batch runs its statements one after
  // another on one backend, and the dynamic ones (lists with their counts) can be long enough that
  // running them side by side on several connections answers sooner.
  if (manager.queryRunner || settings === undefined || prepared === undefined) {
    return statementRows<Row>(manager, sql, values, prepared);
  }
  return batchedRead(poolOf(manager), settings, { text: sql, values, name: prepared }, (statement) =>
    statementRows(manager, statement.text, statement.values, statement.name),
  ) as Promise<Row[]>;
}

function poolOf(manager: EntityManager): Pool {
  return (manager.connection.driver as unknown as { master: Pool }).master;
}

/**
 * Any one statement the way `readRows` runs a read (straight to the pool outside a transaction,
 * optionally prepared), answering the rows it returns: for a write that is on a hot path (the
 * client-credentials login). Reached through `ScopedSql.execute`, never directly by features.
 */
export async function statementRows<Row>(
  manager: EntityManager,
  sql: string,
  values: unknown[],
  prepared?: string,
): Promise<Row[]> {
  if (manager.queryRunner) {
    return manager.query<Row[]>(sql, values);
  }
  // Connect, then query: `pool.query` would call back in the async context of whichever request
  // released the connection, and the unit of work's settings are read from the caller's context.
  const client = await poolOf(manager).connect();
  let failure: Error | undefined;
  try {
    const result = prepared
      ? await client.query({ name: prepared, text: sql, values })
      : await client.query(sql, values);
    return result.rows as Row[];
  } catch (error) {
    failure = error as Error;
    throw new QueryFailedError(sql, values, failure);
  } finally {
    // A connection that failed at the socket is not given to the next caller.
    client.release(failure && !('code' in failure) ? failure : undefined);
  }
}
