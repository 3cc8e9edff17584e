import 'reflect-metadata';
import { generateMigrationCommand } from '@platform/database';
import { loadEnvOrExit } from '@platform/runtime';
import { MainApiEnv } from '../config/main-api.env';
import { mainApiOwnerDataSourceOptions } from './main-api.data-source';

const [name, directory] = process.argv.slice(2);
generateMigrationCommand(
  mainApiOwnerDataSourceOptions(loadEnvOrExit('main-api', MainApiEnv)),
  name ?? '',
  directory ?? '.',
).catch((error: unknown) => {
  process.stderr.write(`main-api: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
