import 'reflect-metadata';
// Migrating needs only the database settings, not MAIN_API_URL: a migration Job has no main-api to call.
import { generateMigrationCommand } from '@platform/database';
import { BaseServiceEnv, loadEnvOrExit } from '@platform/runtime';
import { plannerOwnerDataSourceOptions } from './planner.data-source';

const [name, directory] = process.argv.slice(2);
generateMigrationCommand(
  plannerOwnerDataSourceOptions(loadEnvOrExit('planner', BaseServiceEnv)),
  name ?? '',
  directory ?? '.',
).catch((error: unknown) => {
  process.stderr.write(`planner: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
