export * from './enums/role.enum';
export * from './enums/integration-source.enum';
export * from './enums/project-status.enum';
export * from './enums/task-status.enum';
export * from './errors/allocation-error-name.enum';
export * from './errors/main-api-error-code.enum';
export * from './errors/integrations-error-code.enum';
export * from './errors/error-bodies.dto';
