export * from './fake-http-server';
export * from './test-database';
export * from './test-service';
export * from './operational-endpoints';
