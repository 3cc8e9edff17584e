import type { ScopedPool } from '../scoped-pool';
import { openScratchPool, type ScratchPool } from '../testing/scratch-pool';
import { runWithTenantSettings } from './tenant-context';

const SETTINGS =
  "SELECT current_setting('app.company_id', true) AS company, current_setting('platform.change_origin', true) AS origin, current_setting('app.purpose', true) AS purpose";

describe('statements in a unit of work carry its settings (PooledClient + ScopedQuery)', () => {
  let scratch: ScratchPool;
  let pool: ScopedPool;

  beforeAll(async () => {
    // One connection, so every test below reuses the one the previous test left.
    scratch = await openScratchPool('scoped_query', 1);
    pool = scratch.pool;
  });

  afterAll(() => scratch.close());

  const settingsNow = async () => (await pool.query(SETTINGS)).rows[0] as Record<string, string | null>;

  it('sets the company, origin and purpose for the statement only, in one transaction with it', async () => {
    const inside = await runWithTenantSettings({ companyId: 42, changeOrigin: 'jira' }, () =>
      pool.query(SETTINGS),
    );
    expect(inside.rows).toEqual([{ company: '42', origin: 'jira', purpose: '' }]);
    expect(inside.rowCount).toBe(1);
    // The same connection, afterwards: nothing left behind for the next user of it.
    expect(await settingsNow()).toEqual(
      expect.objectContaining({
        company: expect.not.stringMatching(/42/),
        origin: expect.not.stringMatching(/jira/),
      }),
    );
  });

  it('binds values and reuses a named prepared statement, answering only its own rows', async () => {
    const query = {
      name: 'scoped_echo',
      text: `SELECT $1::int AS value, current_setting('app.company_id', true) AS company FROM generate_series(1, 3)`,
    };
    for (const companyId of [1, 2]) {
      const result = await runWithTenantSettings({ companyId }, () =>
        pool.query({ ...query, values: [companyId * 10] }),
      );
      expect(result.rows).toEqual(
        Array.from({ length: 3 }, () => ({ value: companyId * 10, company: String(companyId) })),
      );
      expect(result.fields.map((field) => field.name)).toEqual(['value', 'company']);
    }
  });

  it('inside an explicit transaction the settings hold until it ends, and BEGIN/COMMIT go as they are', async () => {
    const client = await pool.connect();
    try {
      await runWithTenantSettings({ purpose: 'retention' }, async () => {
        await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        await client.query('SET TRANSACTION READ WRITE');
        expect((await client.query(SETTINGS)).rows[0]).toEqual({
          company: '',
          origin: '',
          purpose: 'retention',
        });
        await client.query('COMMIT');
      });
      expect((await client.query(SETTINGS)).rows[0].purpose).not.toBe('retention');
    } finally {
      client.release();
    }
  });

  it('an error in the statement reaches the caller, and the connection stays usable', async () => {
    await expect(
      runWithTenantSettings({ companyId: 3 }, () =>
        pool.query({ name: 'scoped_broken', text: 'SELEC 1', values: [] }),
      ),
    ).rejects.toThrow(/syntax error/);
    await expect(
      runWithTenantSettings({ companyId: 3 }, () =>
        pool.query({ name: 'scoped_fails', text: 'SELECT 1 / $1::int AS x', values: [0] }),
      ),
    ).rejects.toThrow(/division by zero/);
    const again = await runWithTenantSettings({ companyId: 3 }, () =>
      pool.query({ name: 'scoped_fails', text: 'SELECT 1 / $1::int AS x', values: [1] }),
    );
    expect(again.rows).toEqual([{ x: 1 }]);
  });

  it('a prepared statement whose first run on a connection fails is not parsed twice there', async () => {
    // A client of its own, as ScopedSql and TypeORM hold one: pool.query would drop a client on error.
    const client = await pool.connect();
    const statement = { name: 'scoped_fails_once', text: 'SELECT 10 / $1::int AS x' };
    try {
      for (const [divisor, expected] of [
        [0, /division by zero/],
        [2, [{ x: 5 }]],
        [0, /division by zero/],
        [5, [{ x: 2 }]],
      ] as const) {
        const run = runWithTenantSettings({ companyId: 3 }, () =>
          client.query({ ...statement, values: [divisor] }),
        );
        if (expected instanceof RegExp) {
          await expect(run).rejects.toThrow(expected);
        } else {
          expect((await run).rows).toEqual(expected);
        }
      }
      // A statement whose own Parse fails is parsed again next time (and fails again, not with 42P05).
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await expect(
          runWithTenantSettings({ companyId: 3 }, () =>
            client.query({ name: 'scoped_never_parses', text: 'SELECT nope FROM nowhere', values: [] }),
          ),
        ).rejects.toThrow(/does not exist/);
      }
    } finally {
      client.release();
    }
  });

  it('callback-style calls (as TypeORM makes them through pg-pool) work the same', async () => {
    const rows = await runWithTenantSettings(
      { companyId: 9 },
      () =>
        new Promise((resolve, reject) =>
          pool.query(SETTINGS, [], (error, result) => (error ? reject(error) : resolve(result.rows))),
        ),
    );
    expect(rows).toEqual([{ company: '9', origin: '', purpose: '' }]);
  });

  it('with preparedStatements false (behind PgBouncer in transaction mode) nothing is prepared on the connection', async () => {
    const unnamed = scratch.anotherPool(1, { preparedStatements: false });
    const prepared = () =>
      unnamed.query("SELECT name FROM pg_prepared_statements WHERE name <> '' ORDER BY name");
    for (const companyId of [4, 5]) {
      const result = await runWithTenantSettings({ companyId }, () =>
        unnamed.query({
          name: 'scoped_would_be_named',
          text: `${SETTINGS}, $1::int AS n`,
          values: [companyId],
        }),
      );
      expect(result.rows).toEqual([{ company: String(companyId), origin: '', purpose: '', n: companyId }]);
    }
    expect((await runWithTenantSettings({ companyId: 4 }, prepared)).rows).toEqual([]);
    expect((await prepared()).rows).toEqual([]);
  });
});
