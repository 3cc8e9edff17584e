import { AsyncResource } from 'node:async_hooks';
import pg, { type PoolClient, type PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';

type ConnectCallback = (error: Error | undefined, client: PoolClient | undefined, done: () => void) => void;

/**
 * pg's Pool as every service's TypeORM data source makes it, with one change: a `connect` callback
 * runs in the async context of whoever asked for the connection. pg-pool calls it from wherever the
 * connection became free, i.e. in the context of the request that released it; `pool.query` and
 * TypeORM both connect with a callback, and a statement made there would carry the releasing
 * request's tenant settings (PooledClient reads them from the context). Binding the callback to the
 * caller's context makes `pool.query` inside a scope carry that scope's settings, whoever released
 * the connection (`scoped-pool.spec.ts` proves it on a pool of one connection).
 */
export class ScopedPool extends pg.Pool {
  override connect(): Promise<PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
    if (!callback) {
      return super.connect();
    }
    super.connect(AsyncResource.bind(callback));
  }
}

/** The pools made through each `scopedPgDriver()` object, so the services reach theirs by the data source. */
const poolsOfDriver = new WeakMap<object, ScopedPool>();

/**
 * The `pg` module as TypeORM's `driver` option takes it (its documented way to supply the driver),
 * whose Pool is ScopedPool. One per data source: the pool it makes is found again by `poolOf`.
 */
export function scopedPgDriver(): typeof pg {
  const driver: typeof pg = { ...pg };
  driver.Pool = class DataSourcePool extends ScopedPool {
    constructor(config?: PoolConfig) {
      super(config);
      poolsOfDriver.set(driver, this);
    }
  };
  return driver;
}

/**
 * The data source's pg pool, for the statements that skip TypeORM's query path (ScopedSql) and for
 * the pool's gauges. Found through `dataSource.options.driver`, the object `scopedPgDriver` made.
 */
export function poolOf(dataSource: DataSource): ScopedPool {
  const driver = (dataSource.options as { driver?: object }).driver;
  const pool = driver && poolsOfDriver.get(driver);
  if (!pool) {
    throw new Error('this data source was not built by buildDataSourceOptions (no scoped pg driver)');
  }
  return pool;
}
