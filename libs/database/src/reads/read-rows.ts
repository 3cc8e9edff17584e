import type { Pool } from 'pg';
import { QueryFailedError, type EntityManager } from 'typeorm';

/**
 * Runs a read statement and answers its rows, as `manager.query` does. Outside a transaction the
 * statement goes straight to the driver's pool: TypeORM's path (a query runner object per
 * statement, its connect and release, before/after-query broadcasts, result wrapping) cost about
 * as much CPU as the driver itself on the hot reads (bench/README.md). Failures are still
 * TypeORM's QueryFailedError, so the error body and the logs do not change. Inside a transaction
 * the transaction's own connection runs it.
 */
export async function readRows<Row>(manager: EntityManager, sql: string, values: unknown[]): Promise<Row[]> {
  if (manager.queryRunner) {
    return manager.query<Row[]>(sql, values);
  }
  const pool = (manager.connection.driver as unknown as { master: Pool }).master;
  try {
    return (await pool.query(sql, values)).rows as Row[];
  } catch (error) {
    throw new QueryFailedError(sql, values, error as Error);
  }
}
