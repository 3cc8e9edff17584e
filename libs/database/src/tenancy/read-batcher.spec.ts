import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { QueryFailedError } from 'typeorm';
import { openScratchPool, type ScratchPool } from '../testing/scratch-pool';
import { batchedRead } from './read-batcher';
import type { BatchedStatement } from './scoped-read-batch';
import { runWithTenantSettings, type TenantSettings } from './tenant-context';

/** Which backend answered, and the settings it saw. */
const WHO = {
  text: "SELECT pg_backend_pid() AS pid, current_setting('app.company_id', true) AS company, current_setting('platform.change_origin', true) AS origin, $1::int AS n",
  name: 'batch_who',
};

describe('reads of one unit of work made together share one round trip (batchedRead + ScopedReadBatch)', () => {
  let scratch: ScratchPool;
  let pool: Pool;
  let alone: BatchedStatement[];

  beforeAll(async () => {
    scratch = await openScratchPool('read_batch', 4);
    pool = scratch.pool;
  });

  afterAll(() => scratch.close());

  beforeEach(() => {
    alone = [];
  });

  const runAlone = async (statement: BatchedStatement) => {
    alone.push(statement);
    const result = await pool.query<Record<string, unknown>>({
      text: statement.text,
      values: statement.values,
      name: statement.name,
    });
    return result.rows;
  };
  const read = (settings: TenantSettings, statement: BatchedStatement) =>
    runWithTenantSettings(settings, () => batchedRead(pool, settings, statement, runAlone)) as Promise<
      Record<string, unknown>[]
    >;
  const who = (settings: TenantSettings, n: number) => read(settings, { ...WHO, values: [n] });

  it('answers each read its own rows, on one backend, with the settings of its unit of work', async () => {
    const settings = { companyId: 7, changeOrigin: 'jira' };
    const answers = await Promise.all([who(settings, 1), who(settings, 2), who(settings, 3)]);
    expect(answers.map((rows) => rows.map(({ n, company, origin }) => ({ n, company, origin })))).toEqual([
      [{ n: 1, company: '7', origin: 'jira' }],
      [{ n: 2, company: '7', origin: 'jira' }],
      [{ n: 3, company: '7', origin: 'jira' }],
    ]);
    expect(new Set(answers.map(([row]) => row.pid)).size).toBe(1);
    // Nothing is left on the connection for whoever uses it next.
    const after = await pool.query("SELECT current_setting('app.company_id', true) AS company");
    expect(after.rows[0].company).not.toBe('7');
  });

  it('never mixes units of work: reads of another company made at the same time go in their own batch', async () => {
    const [first, second, third] = await Promise.all([
      who({ companyId: 1 }, 1),
      who({ companyId: 2 }, 2),
      who({ companyId: 1 }, 3),
    ]);
    expect([first[0].company, second[0].company, third[0].company]).toEqual(['1', '2', '1']);
    expect(first[0].pid).toBe(third[0].pid);
  });

  it('reads made in a later turn of the event loop go in a later batch', async () => {
    const settings = { companyId: 5 };
    const early = who(settings, 1);
    await new Promise((resolve) => setImmediate(resolve));
    const late = who(settings, 2);
    expect((await early)[0].n).toBe(1);
    expect((await late)[0].n).toBe(2);
  });

  it('sends the same prepared statement twice in one batch, parsed once', async () => {
    const settings = { companyId: 8 };
    const fresh = {
      text: 'SELECT $1::int * 2 AS doubled',
      name: `batch_twice_${randomBytes(3).toString('hex')}`,
    };
    const answers = await Promise.all([1, 2, 3].map((n) => read(settings, { ...fresh, values: [n] })));
    expect(answers).toEqual([[{ doubled: 2 }], [{ doubled: 4 }], [{ doubled: 6 }]]);
    // And again, now prepared on the connection.
    expect(await read(settings, { ...fresh, values: [5] })).toEqual([{ doubled: 10 }]);
  });

  it('splits more reads than a batch holds over several connections, each answered', async () => {
    const settings = { companyId: 11 };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => who(settings, n)));
    expect(answers.map(([row]) => row.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(answers.every(([row]) => row.company === '11')).toBe(true);
    expect(new Set(answers.map(([row]) => row.pid)).size).toBeGreaterThan(1);
  });

  it('a failing read fails alone: the reads before it are answered, those after it run again by themselves', async () => {
    const settings = { companyId: 3 };
    const failing = {
      text: 'SELECT 1 / $1::int AS x',
      name: `batch_fails_${randomBytes(3).toString('hex')}`,
    };
    const results = await Promise.allSettled([
      who(settings, 1),
      read(settings, { ...failing, values: [0] }),
      who(settings, 3),
      read(settings, { text: 'SELECT $1::int AS y', values: [4] }),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: [expect.objectContaining({ n: 1 })] });
    expect(results[1].status).toBe('rejected');
    const error = (results[1] as PromiseRejectedResult).reason as QueryFailedError;
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error.message).toMatch(/division by zero/);
    expect(error.query).toBe(failing.text);
    expect(results[2]).toEqual({
      status: 'fulfilled',
      value: [expect.objectContaining({ n: 3, company: '3' })],
    });
    expect(results[3]).toEqual({ status: 'fulfilled', value: [{ y: 4 }] });
    expect(alone.map((statement) => statement.values)).toEqual([[3], [4]]);
    // The failed statement and those skipped after it are usable afterwards (parsed again or not).
    expect(await read(settings, { ...failing, values: [1] })).toEqual([{ x: 1 }]);
    expect(await who(settings, 5)).toEqual([expect.objectContaining({ n: 5 })]);
  });

  it('a prepared read whose first run on a connection fails runs there again without a second Parse', async () => {
    const single = scratch.anotherPool(1);
    const settings = { companyId: 12 };
    const failing = {
      text: 'SELECT 10 / $1::int AS x',
      name: `batch_once_${randomBytes(3).toString('hex')}`,
    };
    const run = (divisor: number) =>
      runWithTenantSettings(settings, () =>
        batchedRead(single, settings, { ...failing, values: [divisor] }, () => Promise.resolve([])),
      );
    try {
      await expect(run(0)).rejects.toThrow(/division by zero/);
      await expect(run(2)).resolves.toEqual([{ x: 5 }]);
      await expect(run(0)).rejects.toThrow(/division by zero/);
      await expect(run(5)).resolves.toEqual([{ x: 2 }]);
    } finally {
      await single.end();
    }
  });

  it('a statement that does not parse fails alone, and the connection stays usable', async () => {
    const settings = { companyId: 4 };
    const results = await Promise.allSettled([
      read(settings, { text: 'SELEC 1', values: [], name: `batch_broken_${randomBytes(3).toString('hex')}` }),
      who(settings, 2),
    ]);
    expect(results[0].status).toBe('rejected');
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/syntax error/);
    expect(results[1]).toEqual({ status: 'fulfilled', value: [expect.objectContaining({ n: 2 })] });
  });

  it('a value pg cannot send fails its own read only', async () => {
    const settings = { companyId: 6 };
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const results = await Promise.allSettled([
      who(settings, 1),
      read(settings, { text: 'SELECT $1::jsonb AS j', values: [circular] }),
      who(settings, 3),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<Record<string, unknown>[]>).value[0].n).toBe(3);
  });
});
