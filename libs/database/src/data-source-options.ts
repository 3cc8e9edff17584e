import type { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { useCalendarDateStrings } from './postgres-types';

export interface ServiceDatabaseSettings {
  url: string;
  /** The service's own schema (decisions §1); the service never reads another one. */
  schema: string;
  applicationName: string;
  poolMax?: number;
  statementTimeoutMs?: number;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  migrations: MixedList<Function | string>;
}

/**
 * The one way a service describes its database, shared by the Nest app, the migrate command and the
 * tests: its own schema and migrations table, entities and migrations listed explicitly, never
 * `synchronize`.
 */
export function buildDataSourceOptions(settings: ServiceDatabaseSettings): DataSourceOptions {
  useCalendarDateStrings();
  return {
    type: 'postgres',
    url: settings.url,
    schema: settings.schema,
    entities: settings.entities,
    migrations: settings.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // Failed statements are logged by each service's exception filter without their parameters
    // (they can hold personal data and password hashes); TypeORM would print both.
    logging: ['warn', 'migration'],
    applicationName: settings.applicationName,
    extra: {
      max: settings.poolMax ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      // Unqualified names resolve to the service's schema first; `public` holds extensions.
      options: `-c search_path=${settings.schema},public`,
      ...(settings.statementTimeoutMs ? { statement_timeout: settings.statementTimeoutMs } : {}),
    },
  };
}
