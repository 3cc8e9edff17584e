import { createHash } from 'node:crypto';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { poolOf } from '../scoped-pool';
import { runWithTenantSettings, type TenantSettings } from './tenant-context';

/**
 * The name under which a fixed statement is prepared on each pooled connection (`ScopedSql`).
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
 * Named SQL of one unit of work, with its settings: a feature's own statements, written out in its
 * repository, values always as parameters. `select` runs reads (SELECT only), `execute` anything.
 *
 * `prepared` (from `preparedStatementName`), for a statement whose text never changes: each pooled
 * connection parses and plans it once and then only binds and executes it (PostgreSQL spent more CPU
 * parsing and planning the hot reads than running them, bench/README.md round 3). Never for text
 * built per call, which would prepare without bound.
 *
 * Outside a transaction a statement goes straight to the data source's pg pool: TypeORM's query path
 * (a query runner per statement, its broadcasts and result wrapping) cost about as much CPU as the
 * driver itself on the hot reads (bench/README.md). Failures are still TypeORM's QueryFailedError, so
 * the error body and the logs are the same. Inside a transaction the transaction's connection runs it.
 */
export class ScopedSql {
  constructor(
    private readonly manager: () => EntityManager,
    private readonly settings: () => TenantSettings,
  ) {}

  select<Row>(text: string, values: unknown[] = [], prepared?: string): Promise<Row[]> {
    if (!READ_ONLY.test(text) || (/^\s*WITH\b/i.test(text) && MODIFIES.test(text))) {
      throw new Error('select runs reads only (SELECT, or WITH without a data-modifying statement)');
    }
    return this.run<Row>(text, values, prepared);
  }

  /**
   * Any statement. Answers its rows, or without `prepared` what TypeORM's `query` answers (for UPDATE
   * and DELETE: `[rows, count]`).
   */
  execute<Row = unknown>(text: string, values: unknown[] = [], prepared?: string): Promise<Row[]> {
    return prepared
      ? this.run<Row>(text, values, prepared)
      : runWithTenantSettings(this.settings(), () => this.manager().query<Row[]>(text, values));
  }

  private run<Row>(text: string, values: unknown[], prepared: string | undefined): Promise<Row[]> {
    const manager = this.manager();
    return runWithTenantSettings(this.settings(), () =>
      manager.queryRunner
        ? manager.query<Row[]>(text, values)
        : pooledStatement<Row>(manager, text, values, prepared),
    );
  }
}

async function pooledStatement<Row>(
  manager: EntityManager,
  text: string,
  values: unknown[],
  prepared: string | undefined,
): Promise<Row[]> {
  const client = await poolOf(manager.connection).connect();
  let failure: Error | undefined;
  try {
    const result = prepared
      ? await client.query({ name: prepared, text, values })
      : await client.query(text, values);
    return result.rows as Row[];
  } catch (error) {
    failure = error as Error;
    throw new QueryFailedError(text, values, failure);
  } finally {
    // A connection that failed at the socket is not given to the next caller.
    client.release(failure && !('code' in failure) ? failure : undefined);
  }
}
