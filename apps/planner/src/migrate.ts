import 'reflect-metadata';
// Migrating needs only the database settings, not MAIN_API_URL: a migration Job has no main-api to call.
import { migrateCommand } from '@platform/database';
import { BaseServiceEnv, loadEnvOrExit } from '@platform/runtime';
import { plannerOwnerDataSourceOptions } from './database/planner.data-source';

void migrateCommand('planner', plannerOwnerDataSourceOptions(loadEnvOrExit('planner', BaseServiceEnv)));
