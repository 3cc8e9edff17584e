import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantScope } from '../tenancy/tenant-scope';
import { TenantScopes } from '../tenancy/tenant-scopes';
import { RETENTION_SETTINGS, type RetentionPolicy, type RetentionSettings } from './retention-policy';

/** Rows removed per table by one run. */
export type RetentionReport = Record<string, number>;

const DEFAULT_BATCH_SIZE = 1000;
/** The first run comes within this long of the start, whatever the interval. */
const FIRST_RUN_WITHIN_MS = 60_000;
/** First key of the `pg_try_advisory_lock(int, int)` pair; the second is the table's. */
const LOCK_NAMESPACE = 7303;
const TABLE_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

/**
 * Removes the rows of growing tables that are past their retention (one `RetentionPolicy` per
 * table), every `intervalSeconds`, on every replica. A replica prunes a table only while it holds
 * that table's advisory lock, so replicas take tables in turns instead of queueing on the same rows;
 * each statement removes one small batch, so no run holds long locks or a long transaction, and a
 * run stopped half-way (shutdown, a lost connection) leaves a consistent table for the next one.
 * Every statement, the `alsoRecord` bookkeeping included, runs in the cross-company scope of purpose
 * `retention`, which the tables' row-level security policies allow to read and delete (and record).
 */
@Injectable()
export class RetentionPruner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RetentionPruner');
  private readonly policies: ReadonlyMap<string, RetentionPolicy>;
  private readonly batchSize: number;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  /** The run under way, if any: runs of one replica never overlap. */
  private current: Promise<unknown> = Promise.resolve();
  private readonly scope: TenantScope;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(RETENTION_SETTINGS) private readonly settings: RetentionSettings,
  ) {
    this.scope = new TenantScopes(dataSource).acrossCompanies('retention');
    this.batchSize = settings.batchSize ?? DEFAULT_BATCH_SIZE;
    const policies = new Map<string, RetentionPolicy>();
    for (const policy of settings.policies) {
      if (!TABLE_NAME.test(policy.table)) {
        throw new Error(`Retention policy: "${policy.table}" is not a plain table name`);
      }
      if (policies.has(policy.table)) {
        throw new Error(`Retention policy: ${policy.table} has two policies`);
      }
      policies.set(policy.table, policy);
    }
    this.policies = policies;
  }

  onApplicationBootstrap(): void {
    // Soon after the start rather than a whole interval later, or replicas restarted more often than
    // the interval would never prune; at a random moment, so replicas started together spread out.
    this.schedule(Math.random() * Math.min(this.settings.intervalSeconds * 1000, FIRST_RUN_WITHIN_MS));
  }

  /** Before the database closes: no new run, and the one under way stops after its current batch. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  /**
   * Prunes every table now (or only `tables`), after the run under way if any. A table another
   * replica is pruning at that moment is skipped (0). Rejects, once every table had its turn, when
   * any table failed; the failures are logged.
   */
  runOnce(tables?: readonly string[]): Promise<RetentionReport> {
    const chosen = (tables ?? [...this.policies.keys()]).map((table) => {
      const policy = this.policies.get(table);
      if (!policy) {
        throw new Error(`No retention policy for table ${table}`);
      }
      return policy;
    });
    const run = this.current.then(() => this.pruneAll(chosen));
    this.current = run.catch(() => undefined);
    return run;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      void this.runOnce()
        // Already logged, table by table.
        .catch(() => undefined)
        .finally(() => this.schedule(this.settings.intervalSeconds * 1000));
    }, delayMs);
    this.timer.unref();
  }

  private async pruneAll(policies: readonly RetentionPolicy[]): Promise<RetentionReport> {
    const report: RetentionReport = {};
    const failed: string[] = [];
    for (const policy of policies) {
      report[policy.table] = 0;
      if (this.stopped) {
        continue;
      }
      try {
        report[policy.table] = await this.scope.run(() => this.prune(policy));
      } catch (error) {
        failed.push(policy.table);
        this.logger.warn(
          { table: policy.table, err: error instanceof Error ? error.message : String(error) },
          'pruning failed; trying again on the next run',
        );
      }
    }
    if (failed.length > 0) {
      throw new Error(`Pruning failed for ${failed.join(', ')}`);
    }
    return report;
  }

  private async prune(policy: RetentionPolicy): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // A session lock (the batches are separate transactions); it goes with the connection if that dies.
      const lockKey = [LOCK_NAMESPACE, policy.table];
      const [{ locked }] = (await runner.query(
        "SELECT pg_try_advisory_lock($1, hashtext(current_schema() || '.' || $2)) AS locked",
        lockKey,
      )) as { locked: boolean }[];
      if (!locked) {
        return 0;
      }
      try {
        const statement = deleteBatchStatement(policy);
        const parameters = [...(policy.parameters ?? []), this.batchSize];
        let removed = 0;
        for (;;) {
          const [{ count }] = (await runner.query(statement, parameters)) as { count: number }[];
          removed += count;
          if (count < this.batchSize || this.stopped) {
            break;
          }
        }
        if (removed > 0) {
          this.logger.log(
            { table: policy.table, removed, kept: policy.keptFor },
            `removed ${removed} rows of ${policy.table} (keeps ${policy.keptFor})`,
          );
        }
        return removed;
      } finally {
        await runner.query("SELECT pg_advisory_unlock($1, hashtext(current_schema() || '.' || $2))", lockKey);
      }
    } finally {
      await runner.release();
    }
  }
}

/**
 * One batch: the rows are found and locked by the inner select (rows another transaction holds are
 * left for the next run), then deleted by their physical address, which needs no primary key.
 */
function deleteBatchStatement(policy: RetentionPolicy): string {
  const table = policy.table
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
  const limit = `$${(policy.parameters?.length ?? 0) + 1}`;
  const recorded = policy.alsoRecord ? `, recorded AS (${policy.alsoRecord.statement})` : '';
  return `WITH removed AS (
      DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM ${table} WHERE ${policy.expired} LIMIT ${limit} FOR UPDATE SKIP LOCKED))
      RETURNING ${policy.alsoRecord?.returning ?? '1'}
    )${recorded}
    SELECT count(*)::int AS count FROM removed`;
}
