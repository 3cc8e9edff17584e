import type { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { PooledClient } from './pooled-client';
import { scopedPgDriver } from './scoped-pool';
import { useCalendarDateStrings } from './postgres-types';

export interface ServiceDatabaseSettings {
  url: string;
  /** The service's own schema (docs/spec/decisions.md §1); the service never reads another one. */
  schema: string;
  applicationName: string;
  /**
   * The role each connection acts as (`SET ROLE` at connect): the service's runtime role, which does
   * not own the tables, so their row-level security always applies. None for migrations and tooling,
   * which act as the owner.
   */
  role?: string;
  poolMax?: number;
  statementTimeoutMs?: number;
  /** False behind a transaction-mode pooler that cannot keep them (see PooledClient). */
  preparedStatements?: boolean;
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
export function buildDataSourceOptions(
  settings: ServiceDatabaseSettings,
): DataSourceOptions & { schema: string } {
  useCalendarDateStrings();
  return {
    type: 'postgres' as const,
    url: settings.url,
    schema: settings.schema,
    entities: settings.entities,
    migrations: settings.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // gen_random_uuid() is built into Postgres 13+; extensions are created by migrations, never at connect.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    // Failed statements are logged by each service's exception filter without their parameters
    // (they can hold personal data and password hashes); TypeORM would print both.
    logging: ['warn', 'migration'],
    applicationName: settings.applicationName,
    // pg with ScopedPool: a connection's callback runs in its caller's tenant context.
    driver: scopedPgDriver(),
    extra: {
      Client: PooledClient,
      // Read by PooledClient (pg-pool hands its options to each client it makes).
      preparedStatements: settings.preparedStatements ?? true,
      max: settings.poolMax ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      // Unqualified names resolve to the service's schema first; `public` holds extensions.
      options: `-c search_path=${settings.schema},public${settings.role ? ` -c role=${settings.role}` : ''}`,
      ...(settings.statementTimeoutMs ? { statement_timeout: settings.statementTimeoutMs } : {}),
    },
  };
}

/** The database variables every service reads (see BaseServiceEnv). */
export interface DatabaseEnv {
  DATABASE_URL: string;
  /** The role the service acts as; `login` for the login role itself (see BaseServiceEnv). */
  DATABASE_ROLE?: string;
  /** The owner's connection, for migrations; DATABASE_URL when unset. */
  MIGRATION_DATABASE_URL?: string;
  DATABASE_POOL_MAX: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  DATABASE_PREPARED_STATEMENTS?: boolean;
}

/** What a service declares about its own database. */
export type ServiceDatabase = Pick<
  ServiceDatabaseSettings,
  'schema' | 'applicationName' | 'entities' | 'migrations'
> & {
  /** The role its migrations grant to and its connections act as, unless DATABASE_ROLE says otherwise. */
  runtimeRole: string;
};

/** The service's own connections: as its runtime role, under row-level security. */
export function serviceDataSourceOptions(
  database: ServiceDatabase,
  env: DatabaseEnv,
): DataSourceOptions & { schema: string } {
  const role = env.DATABASE_ROLE ?? database.runtimeRole;
  return buildDataSourceOptions({
    ...database,
    url: env.DATABASE_URL,
    role: role === 'login' ? undefined : role,
    poolMax: env.DATABASE_POOL_MAX,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
  });
}

/**
 * The owner's connections, for migrations and tooling (migration generation, tests that inspect the
 * tables): MIGRATION_DATABASE_URL, or DATABASE_URL when the same login may do both.
 */
export function ownerDataSourceOptions(
  database: ServiceDatabase,
  env: DatabaseEnv,
): DataSourceOptions & { schema: string } {
  return buildDataSourceOptions({
    ...database,
    url: env.MIGRATION_DATABASE_URL ?? env.DATABASE_URL,
    poolMax: env.DATABASE_POOL_MAX,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  });
}
