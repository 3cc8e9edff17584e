import type { Pool, PoolClient } from 'pg';
import { QueryFailedError } from 'typeorm';
import { runWithTenantSettings, type TenantSettings } from './tenant-context';
import { ScopedReadBatch, wireValues, type BatchedStatement, type BatchOutcome } from './scoped-read-batch';

/**
 * At most this many reads share a round trip: PostgreSQL runs a batch's statements one after another
 * on one backend, so a longer batch would trade the parallelism of several connections for fewer
 * round trips.
 */
const MAX_BATCH = 8;

interface PendingRead extends BatchedStatement {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/** Reads waiting for the end of this turn of the event loop, per pool and per settings. */
const waiting = new WeakMap<Pool, Map<string, PendingRead[]>>();

const settingsKey = (settings: TenantSettings) =>
  `${settings.companyId ?? ''}\u0000${settings.changeOrigin ?? ''}\u0000${settings.purpose ?? ''}`;

/**
 * Runs a read outside any transaction, together with the other reads of the same settings made in
 * the same turn of the event loop: a request's reads issued side by side (the project detail's five)
 * and those of concurrent requests of the same company go to PostgreSQL as one round trip on one
 * pooled connection, with the settings statement once (ScopedReadBatch) instead of once per read.
 * On this kind of machine a socket write costs more than a small read's execution: batched, the
 * project detail costs main-api 0.36 ms of CPU instead of 0.56 and PostgreSQL 0.29 ms instead of
 * 0.48 (bench/README.md, round 8). Only prepared reads come here (`readRows`).
 *
 * `runAlone` runs one read by itself (as `readRows` did before), for the reads behind a failed one:
 * each read fails or succeeds as if it had been sent alone.
 */
export function batchedRead(
  pool: Pool,
  settings: TenantSettings,
  statement: BatchedStatement,
  runAlone: (statement: BatchedStatement) => Promise<unknown[]>,
): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    let byKey = waiting.get(pool);
    if (byKey === undefined) {
      byKey = new Map();
      waiting.set(pool, byKey);
    }
    const key = settingsKey(settings);
    let reads = byKey.get(key);
    if (reads === undefined) {
      const batch: PendingRead[] = [];
      reads = batch;
      byKey.set(key, batch);
      const pending = byKey;
      setImmediate(() => {
        if (pending.get(key) === batch) {
          pending.delete(key);
          void send(pool, settings, batch, runAlone);
        }
      });
    }
    reads.push({ ...statement, resolve, reject });
    if (reads.length >= MAX_BATCH) {
      byKey.delete(key);
      void send(pool, settings, reads, runAlone);
    }
  });
}

async function send(
  pool: Pool,
  settings: TenantSettings,
  waitingReads: PendingRead[],
  runAlone: (statement: BatchedStatement) => Promise<unknown[]>,
): Promise<void> {
  const reads: PendingRead[] = [];
  const sent: BatchedStatement[] = [];
  for (const read of waitingReads) {
    try {
      sent.push({ text: read.text, name: read.name, values: wireValues(read.values) });
      reads.push(read);
    } catch (error) {
      read.reject(new QueryFailedError(read.text, read.values, error as Error));
    }
  }
  if (reads.length === 0) {
    return;
  }
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    reads.forEach((read) => read.reject(error as Error));
    return;
  }
  const outcome = await new Promise<BatchOutcome>((resolve) => {
    // pg takes any Submittable; its types only list pg's own.
    (client.query as (submittable: unknown) => unknown)(new ScopedReadBatch(settings, sent, resolve));
  });
  // A connection that failed at the socket is not given to the next caller.
  const broken = outcome.error && !('code' in outcome.error);
  client.release(broken ? outcome.error : undefined);
  outcome.rows.forEach((rows, index) => reads[index].resolve(rows));
  if (outcome.error) {
    const failed = reads[outcome.rows.length];
    // As statementRows reports a failed statement: TypeORM's error, so the error body and the logs
    // do not change.
    failed?.reject(new QueryFailedError(failed.text, failed.values, outcome.error));
    for (const read of reads.slice(outcome.rows.length + 1)) {
      runWithTenantSettings(settings, () => runAlone(read)).then(read.resolve, read.reject);
    }
  }
}
