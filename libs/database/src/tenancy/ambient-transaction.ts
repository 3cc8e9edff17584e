import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

const ambient = new AsyncLocalStorage<EntityManager>();

/**
 * Runs `work` so that every TenantScope of `manager`'s data source makes its statements on
 * `manager`'s connection, inside its transaction: a batch (`BatchRunner`) runs each operation as the
 * route's own request, and this is how the route's repositories join the batch's one transaction
 * without knowing about it. A scope's own `transaction` becomes a savepoint of it.
 */
export function runInAmbientTransaction<T>(manager: EntityManager, work: () => T): T {
  if (!manager.queryRunner?.isTransactionActive) {
    throw new Error('an ambient transaction needs a manager whose query runner is in a transaction');
  }
  return ambient.run(manager, work);
}

/** The manager statements of `dataSource` go through: the ambient transaction's, else the pool's. */
export function managerOf(dataSource: DataSource): EntityManager {
  const manager = ambient.getStore();
  return manager !== undefined && manager.connection === dataSource ? manager : dataSource.manager;
}
