import { serviceDataSourceOptions, type DatabaseEnv, type ServiceDatabase } from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { ExternalMapping } from '../mappings/external-mapping.entity';
import { INTEGRATIONS_MIGRATIONS } from './migrations';

/** integrations's own schema, entities and migrations: shared by the app, the migrate command and tests. */
export const INTEGRATIONS_DATABASE: ServiceDatabase = {
  schema: 'integrations',
  applicationName: 'integrations',
  entities: [ExternalMapping],
  migrations: INTEGRATIONS_MIGRATIONS,
};

export function integrationsDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return serviceDataSourceOptions(INTEGRATIONS_DATABASE, env);
}
