export * from './enums/role.enum';
export * from './enums/integration-entity.enum';
export * from './enums/integration-source.enum';
export * from './lists/list-query.dto';
export * from './lists/timestamps';
export * from './lists/api-filters-example.decorator';
export * from './lists/api-paginated-response.decorator';
export * from './validation/field-decorators';
