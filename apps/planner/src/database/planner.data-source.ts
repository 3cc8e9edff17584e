import { serviceDataSourceOptions, type DatabaseEnv, type ServiceDatabase } from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { Allocation } from '../allocations/allocation.entity';
import { PLANNER_MIGRATIONS } from './migrations';

/** planner's own schema, entities and migrations: shared by the app, the migrate command and tests. */
export const PLANNER_DATABASE: ServiceDatabase = {
  schema: 'planner',
  applicationName: 'planner',
  entities: [Allocation],
  migrations: PLANNER_MIGRATIONS,
};

export function plannerDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return serviceDataSourceOptions(PLANNER_DATABASE, env);
}
