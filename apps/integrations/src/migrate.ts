import 'reflect-metadata';
// Migrating needs only the database settings, not MAIN_API_URL: a migration Job has no main-api to call.
import { migrateCommand } from '@platform/database';
import { BaseServiceEnv, loadEnvOrExit } from '@platform/runtime';
import { integrationsOwnerDataSourceOptions } from './database/integrations.data-source';

void migrateCommand(
  'integrations',
  integrationsOwnerDataSourceOptions(loadEnvOrExit('integrations', BaseServiceEnv)),
);
