import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDatabase, databaseUrl, dropDatabase } from '../database-admin';
import { buildDataSourceOptions } from '../data-source-options';
import type { RetentionPolicy, RetentionSettings } from './retention-policy';
import { RetentionPruner } from './retention-pruner';

// This lib sits below @platform/testing, so it makes its own per-test database with the same helpers.
const adminUrl = process.env.TEST_DATABASE_URL ?? '';

const events: RetentionPolicy = {
  table: 'events',
  expired: "created_at < now() - make_interval(days => $1) AND state <> 'pending'",
  parameters: [30],
  keptFor: '30 days, pending ones for ever',
};

describe('RetentionPruner', () => {
  let database: { url: string; name: string };
  let dataSource: DataSource;
  const started: RetentionPruner[] = [];

  const pruner = (settings: Partial<RetentionSettings> = {}, source = dataSource) => {
    const created = new RetentionPruner(source, { intervalSeconds: 3600, policies: [events], ...settings });
    started.push(created);
    return created;
  };
  const insert = (count: number, ageDays: number, state = 'done') =>
    dataSource.query(
      `INSERT INTO events (company_id, state, created_at)
       SELECT 1 + n % 3, $2, now() - make_interval(days => $3) FROM generate_series(1, $1) AS n`,
      [count, state, ageDays],
    );
  const countWhere = async (condition: string): Promise<number> =>
    (await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM events WHERE ${condition}`))[0]
      .n;

  beforeAll(() => {
    // The pruner logs what it removed and what failed; the assertions read the database instead.
    Logger.overrideLogger(false);
  });

  beforeEach(async () => {
    const name = `t_retention_${randomBytes(5).toString('hex')}`;
    await createDatabase(adminUrl, name);
    database = { name, url: databaseUrl(adminUrl, name) };
    dataSource = await new DataSource(
      buildDataSourceOptions({
        url: database.url,
        schema: 'sample',
        applicationName: 'retention-spec',
        entities: [],
        migrations: [],
      }),
    ).initialize();
    await dataSource.query('CREATE SCHEMA sample');
    await dataSource.query(
      `CREATE TABLE events (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company_id integer NOT NULL,
         state varchar(10) NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
  });

  afterEach(async () => {
    for (const each of started.splice(0)) {
      await each.beforeApplicationShutdown();
    }
    await dataSource.destroy();
    await dropDatabase(adminUrl, database.name);
  });

  it('removes the rows past retention, in batches, and keeps the fresh and the excepted ones', async () => {
    await insert(25, 31);
    await insert(4, 29);
    await insert(3, 400, 'pending');

    const report = await pruner({ batchSize: 10 }).runOnce();

    expect(report).toEqual({ events: 25 });
    expect(await countWhere("created_at < now() - interval '30 days' AND state <> 'pending'")).toBe(0);
    expect(await countWhere('true')).toBe(7);
  });

  it('removes at most one batch per statement', async () => {
    await insert(5, 31);
    const removedPerStatement: number[] = [];
    const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
    jest.spyOn(dataSource, 'createQueryRunner').mockImplementation((mode) => {
      const runner = createQueryRunner(mode);
      const query = runner.query.bind(runner);
      runner.query = (async (sql: string, parameters?: unknown[]) => {
        const rows = (await query(sql, parameters)) as { count?: number }[];
        if (sql.includes('DELETE FROM')) {
          removedPerStatement.push(rows[0].count ?? -1);
        }
        return rows;
      }) as typeof runner.query;
      return runner;
    });

    await pruner({ batchSize: 2 }).runOnce();

    // The short batch ends the run.
    expect(removedPerStatement).toEqual([2, 2, 1]);
    expect(await countWhere('true')).toBe(0);
  });

  it('commits the bookkeeping of a policy with each batch', async () => {
    await dataSource.query(
      'CREATE TABLE watermarks (company_id integer PRIMARY KEY, pruned_through bigint NOT NULL)',
    );
    await insert(12, 31);
    await insert(2, 1);
    const [{ newest }] = await dataSource.query<{ newest: string }[]>(
      "SELECT max(id) AS newest FROM events WHERE created_at < now() - interval '30 days'",
    );

    await pruner({
      batchSize: 5,
      policies: [
        {
          ...events,
          alsoRecord: {
            returning: 'company_id, id',
            statement: `INSERT INTO watermarks (company_id, pruned_through)
              SELECT company_id, max(id) FROM removed GROUP BY company_id
              ON CONFLICT (company_id) DO UPDATE
                SET pruned_through = greatest(watermarks.pruned_through, EXCLUDED.pruned_through)`,
          },
        },
      ],
    }).runOnce();

    const marks = await dataSource.query<{ company_id: number; pruned_through: string }[]>(
      'SELECT company_id, pruned_through FROM watermarks ORDER BY company_id',
    );
    expect(marks.map((mark) => mark.company_id)).toEqual([1, 2, 3]);
    expect(Math.max(...marks.map((mark) => Number(mark.pruned_through)))).toBe(Number(newest));
    expect(await countWhere('true')).toBe(2);
  });

  it('lets several replicas prune at once: every old row goes exactly once, no run fails', async () => {
    await insert(3000, 31);
    await insert(10, 1);
    const replicas = await Promise.all(
      Array.from({ length: 3 }, () =>
        new DataSource({
          ...dataSource.options,
          extra: { ...dataSource.options.extra, max: 2 },
        }).initialize(),
      ),
    );
    try {
      const reports = await Promise.all(
        replicas.map((replica) => pruner({ batchSize: 100 }, replica).runOnce()),
      );

      expect(reports.reduce((sum, report) => sum + (report.events ?? 0), 0)).toBe(3000);
      expect(await countWhere('true')).toBe(10);
    } finally {
      for (const each of started.splice(0)) {
        await each.beforeApplicationShutdown();
      }
      await Promise.all(replicas.map((replica) => replica.destroy()));
    }
  });

  it('skips a table another replica is pruning, and prunes it on a later run', async () => {
    await insert(3, 31);
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query(
        "SELECT pg_advisory_lock(7303, hashtext('sample' || '.' || 'events')) FROM (SELECT 1) AS x",
      );
      const subject = pruner();

      await expect(subject.runOnce()).resolves.toEqual({ events: 0 });
      expect(await countWhere('true')).toBe(3);

      await other.query("SELECT pg_advisory_unlock(7303, hashtext('sample' || '.' || 'events'))");
      await expect(subject.runOnce()).resolves.toEqual({ events: 3 });
    } finally {
      await other.end();
    }
  });

  it('leaves rows another transaction holds for the next run rather than waiting for them', async () => {
    await insert(4, 31);
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM sample.events ORDER BY id LIMIT 1 FOR UPDATE');

      await expect(pruner().runOnce()).resolves.toEqual({ events: 3 });

      await other.query('COMMIT');
      await expect(pruner().runOnce()).resolves.toEqual({ events: 1 });
    } finally {
      await other.end();
    }
  });

  it('gives every table its turn when one fails, then reports the failure', async () => {
    await insert(2, 31);
    const broken: RetentionPolicy = { table: 'missing_table', expired: 'true', keptFor: 'nothing' };
    const subject = pruner({ policies: [broken, events] });

    await expect(subject.runOnce()).rejects.toThrow('Pruning failed for missing_table');
    expect(await countWhere('true')).toBe(0);
  });

  it('runs on its own soon after the start, and not once shut down', async () => {
    await insert(3, 31);
    const subject = pruner({ intervalSeconds: 1 });

    subject.onApplicationBootstrap();
    for (let waited = 0; waited < 5000 && (await countWhere('true')) > 0; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await countWhere('true')).toBe(0);

    await subject.beforeApplicationShutdown();
    await insert(3, 31);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await countWhere('true')).toBe(3);
  });

  it('refuses a table name it would have to quote, two policies for one table, and unknown tables', () => {
    expect(() => pruner({ policies: [{ ...events, table: 'events; DROP TABLE x' }] })).toThrow(
      'not a plain table name',
    );
    expect(() => pruner({ policies: [events, events] })).toThrow('two policies');
    expect(() => pruner().runOnce(['other'])).toThrow('No retention policy for table other');
  });
});
