import { buildDataSourceOptions } from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { ApiClient } from '../api-clients/api-client.entity';
import { Company } from '../companies/company.entity';
import type { MainApiEnv } from '../config/main-api.env';
import { User } from '../users/user.entity';
import { MAIN_API_MIGRATIONS } from './migrations';

export const MAIN_API_SCHEMA = 'main_api';

export const MAIN_API_ENTITIES = [Company, User, ApiClient];

/** The one description of main-api's database, used by the app, the migrate command and tests. */
export function mainApiDataSourceOptions(
  env: Pick<MainApiEnv, 'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'DATABASE_STATEMENT_TIMEOUT_MS'>,
): DataSourceOptions & { schema: string } {
  return {
    ...buildDataSourceOptions({
      url: env.DATABASE_URL,
      schema: MAIN_API_SCHEMA,
      applicationName: 'main-api',
      poolMax: env.DATABASE_POOL_MAX,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      entities: MAIN_API_ENTITIES,
      migrations: MAIN_API_MIGRATIONS,
    }),
    schema: MAIN_API_SCHEMA,
  } as DataSourceOptions & { schema: string };
}
