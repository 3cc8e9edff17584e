import pg from 'pg';
import { PooledClient } from './pooled-client';
import { runWithTenantSettings } from './tenancy/tenant-context';
import { openScratchPool, type ScratchPool } from './testing/scratch-pool';

const COMPANY = "SELECT current_setting('app.company_id', true) AS company";

/**
 * Scope A holds the pool's only connection while scope B asks for one with `pool.query`; A then
 * releases it from its own async context, which is where pg-pool hands it to B.
 */
async function companySeenByWaitingQuery(pool: pg.Pool): Promise<string> {
  const holder = await runWithTenantSettings({ companyId: 1 }, () => pool.connect());
  const waiting = runWithTenantSettings({ companyId: 2 }, () => pool.query(COMPANY));
  await new Promise((resolve) => setImmediate(resolve));
  runWithTenantSettings({ companyId: 1 }, () => holder.release());
  const { rows } = await waiting;
  return (rows[0] as { company: string }).company;
}

describe('ScopedPool: a statement made while waiting for a connection carries its own scope', () => {
  let scratch: ScratchPool;

  beforeAll(async () => {
    scratch = await openScratchPool('scoped_pool', 1);
  });

  afterAll(() => scratch.close());

  it('pool.query inside a scope runs with that scope, whoever released the connection', async () => {
    expect(await companySeenByWaitingQuery(scratch.pool)).toBe('2');
  });

  it("pg's own Pool would run it with the releasing request's company (why ScopedPool exists)", async () => {
    const url = (scratch.pool.options as { connectionString: string }).connectionString;
    const plain = new pg.Pool({ connectionString: url, Client: PooledClient, max: 1 });
    try {
      expect(await companySeenByWaitingQuery(plain)).toBe('1');
    } finally {
      await plain.end();
    }
  });

  it('a promise-style connect keeps working', async () => {
    const client = await runWithTenantSettings({ companyId: 3 }, () => scratch.pool.connect());
    try {
      const { rows } = await runWithTenantSettings({ companyId: 3 }, () => client.query(COMPANY));
      expect(rows).toEqual([{ company: '3' }]);
    } finally {
      client.release();
    }
  });
});
