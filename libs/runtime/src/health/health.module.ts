import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness-check';

export interface HealthModuleOptions {
  /** The services `/health/ready` also checks (main-api, for planner and integrations). */
  readinessChecks?: Omit<FactoryProvider<ReadinessCheck[]>, 'provide'>;
}

/**
 * `/health/live` (the process), `/health/ready` (the database and the services it calls, as the
 * shared contract says) and `/health/ready/self` (the database only: the readiness probe).
 */
@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions = {}): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: options.readinessChecks ? [{ provide: READINESS_CHECKS, ...options.readinessChecks }] : [],
    };
  }
}
