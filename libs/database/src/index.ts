export * from './data-source-options';
export * from './database-errors';
export * from './postgres-types';
export * from './run-migrations';
export * from './migration-cli';
export * from './database-admin';
