import { Injectable, Optional } from '@nestjs/common';
import { MetricsRegistry } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { poolOf } from './scoped-pool';

/** What pg's Pool counts. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The service's connection pool in its Prometheus registry, read from pg's Pool when scraped (no
 * work per query): connections lent out, idle, and requests waiting for one. Waiting above zero
 * for long means DATABASE_POOL_MAX (or PostgreSQL) is the bottleneck.
 */
@Injectable()
export class DatabasePoolMetrics {
  constructor(dataSource: DataSource, @Optional() metrics?: MetricsRegistry) {
    if (!metrics) {
      return;
    }
    // Created when the data source initializes, which may be after this provider.
    const pool = (): PoolCounts | undefined => (dataSource.isInitialized ? poolOf(dataSource) : undefined);
    metrics.gauge({
      name: 'database_pool_connections_in_use',
      help: 'Connections of the pool lent out to a query or transaction',
      read: () => {
        const current = pool();
        return current ? current.totalCount - current.idleCount : 0;
      },
    });
    metrics.gauge({
      name: 'database_pool_connections_idle',
      help: 'Open connections of the pool waiting to be lent out',
      read: () => pool()?.idleCount ?? 0,
    });
    metrics.gauge({
      name: 'database_pool_requests_waiting',
      help: 'Requests for a connection waiting because every connection of the pool is in use',
      read: () => pool()?.waitingCount ?? 0,
    });
  }
}
