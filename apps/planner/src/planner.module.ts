import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@platform/auth';
import { MainApiClientModule, mainApiReadinessChecks } from '@platform/main-api-client';
import { HealthModule, loggingModule, MetricsModule } from '@platform/runtime';
import { PLANNER_ENV, type PlannerEnv } from './config/planner.env';
import { plannerDataSourceOptions } from './database/planner.data-source';

@Module({})
export class PlannerModule {
  static forRoot(env: PlannerEnv): DynamicModule {
    return {
      module: PlannerModule,
      global: true,
      imports: [
        loggingModule('planner', env),
        TypeOrmModule.forRoot({ ...plannerDataSourceOptions(env), retryAttempts: 3, retryDelay: 1000 }),
        MainApiClientModule.forRoot({ baseUrl: env.MAIN_API_URL, timeoutMs: env.MAIN_API_TIMEOUT_MS }),
        AuthModule.forRoot({
          issuer: env.JWT_ISSUER,
          audience: env.JWT_AUDIENCE,
          keys: {
            jwks: {
              url: `${env.MAIN_API_URL.replace(/\/+$/, '')}/v1/.well-known/jwks.json`,
              timeoutMs: env.MAIN_API_TIMEOUT_MS,
            },
          },
        }),
        MetricsModule,
        HealthModule.forRoot({ readinessChecks: mainApiReadinessChecks }),
      ],
      providers: [{ provide: PLANNER_ENV, useValue: env }],
      exports: [PLANNER_ENV],
    };
  }
}
