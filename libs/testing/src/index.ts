export * from './fake-http-server';
export * from './test-database';
export * from './test-service';
export * from './operational-endpoints';
export * from './auth-expectations';
export * from './test-probe.controller';
export * from './test-tokens';
export * from './consumer-test-service';
