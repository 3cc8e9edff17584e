import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';

/**
 * `/health/live` (the process) and `/health/ready` (the service's own database). Services that call
 * main-api do not check it here: their breaker answers 503 while it is down, and they stay in their
 * Service's endpoints so that clients get that answer.
 */
@Module({})
export class HealthModule {
  static forRoot(): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
    };
  }
}
