import 'reflect-metadata';
import { migrateCommand } from '@platform/database';
import { loadEnvOrExit } from '@platform/runtime';
import { MainApiEnv } from './config/main-api.env';
import { mainApiOwnerDataSourceOptions } from './database/main-api.data-source';

void migrateCommand('main-api', mainApiOwnerDataSourceOptions(loadEnvOrExit('main-api', MainApiEnv)));
