import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@platform/auth';
import { TenancyModule } from '@platform/database';
import { MainApiClientModule, mainApiReadinessChecks } from '@platform/main-api-client';
import { HealthModule, loggingModule, MetricsModule } from '@platform/runtime';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from './config/integrations.env';
import { integrationsDataSourceOptions } from './database/integrations.data-source';
import { MappingsModule } from './mappings/mappings.module';

@Module({})
export class IntegrationsModule {
  static forRoot(env: IntegrationsEnv): DynamicModule {
    return {
      module: IntegrationsModule,
      global: true,
      imports: [
        loggingModule('integrations', env),
        TypeOrmModule.forRoot({ ...integrationsDataSourceOptions(env), retryAttempts: 3, retryDelay: 1000 }),
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
        TenancyModule,
        MappingsModule,
      ],
      providers: [{ provide: INTEGRATIONS_ENV, useValue: env }],
      exports: [INTEGRATIONS_ENV],
    };
  }
}
