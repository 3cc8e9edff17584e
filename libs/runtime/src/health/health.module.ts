import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness-check';

export interface HealthModuleOptions {
  /** Modules providing what the readiness checks need (e.g. the main-api client). */
  imports?: ModuleMetadata['imports'];
  readinessChecks?: Omit<FactoryProvider<ReadinessCheck[]>, 'provide'>;
}

/** `/health/live` and `/health/ready` (database plus the service's own dependencies). */
@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions = {}): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false }), ...(options.imports ?? [])],
      controllers: [HealthController],
      providers: options.readinessChecks ? [{ provide: READINESS_CHECKS, ...options.readinessChecks }] : [],
    };
  }
}
