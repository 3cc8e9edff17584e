import { randomBytes } from 'node:crypto';
import { createDatabase, databaseUrl, dropDatabase } from '../database-admin';
import { PooledClient } from '../pooled-client';
import { ScopedPool } from '../scoped-pool';

/** A spec's own empty database, reached through pg pools as the services make them. */
export interface ScratchPool {
  pool: ScopedPool;
  /** Another pool on the same database, of at most `max` connections; ended by `close` too. */
  anotherPool(max: number, client?: { preparedStatements?: boolean }): ScopedPool;
  close(): Promise<void>;
}

/**
 * For this library's specs that drive pg below TypeORM: a fresh database on TEST_DATABASE_URL and a
 * pool of `PooledClient`s (the client the services' pools use) of at most `max` connections.
 */
export async function openScratchPool(label: string, max: number): Promise<ScratchPool> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `t_${label}_${randomBytes(5).toString('hex')}`;
  await createDatabase(adminUrl, name);
  const pools: ScopedPool[] = [];
  const open = (connections: number, client: { preparedStatements?: boolean } = {}) => {
    const pool = new ScopedPool({
      connectionString: databaseUrl(adminUrl, name),
      Client: PooledClient,
      max: connections,
      ...client,
    });
    // pool.end() closes its idle clients without waiting for their sockets; the DROP DATABASE … WITH
    // (FORCE) after it can end a backend first, and pg-pool reports that as the pool's error. The
    // services' pools (through TypeORM) listen for it too.
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };
  return {
    pool: open(max),
    anotherPool: open,
    close: async () => {
      await Promise.all(pools.filter((pool) => !pool.ended).map((pool) => pool.end()));
      await dropDatabase(adminUrl, name);
    },
  };
}
