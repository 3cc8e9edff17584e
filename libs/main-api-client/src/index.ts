export * from './main-api-client.module';
export * from './main-api-client.options';
export * from './main-api-request.error';
export * from './main-api.client';
export * from './main-api-consumer.env';
export * from './caller.decorator';
export * from './consumer-service.imports';
export * from './circuit-breaker';
