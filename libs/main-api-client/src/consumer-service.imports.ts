import type { DynamicModule, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule, quotaSettingsOf } from '@platform/auth';
import { TenancyModule } from '@platform/database';
import { HealthModule, loggingModule, MetricsModule } from '@platform/runtime';
import type { DataSourceOptions } from 'typeorm';
import { MainApiClientModule } from './main-api-client.module';
import type { MainApiConsumerEnv } from './main-api-consumer.env';
import { mainApiReadinessChecks } from './main-api-readiness';

/**
 * The foundation of a service that depends on main-api (planner, integrations): logs, its own
 * database, the main-api client, tokens verified with main-api's JWKS, metrics, health and the tenant
 * scope. The service adds its feature modules.
 *
 * `/health/ready` also checks that main-api answers, as the shared contract says; the readiness
 * probe uses `/health/ready/self` (the database only), because a main-api outage must not take the
 * service out of its Service's endpoints: its clients would then get the ingress's error page
 * instead of the designed 503 `MainApiUnavailableError`, which the client's breaker answers at once.
 */
export function mainApiConsumerImports(
  serviceName: string,
  env: MainApiConsumerEnv,
  dataSourceOptions: DataSourceOptions,
): (DynamicModule | Type)[] {
  const mainApiUrl = env.MAIN_API_URL.replace(/\/+$/, '');
  return [
    loggingModule(serviceName, env),
    TypeOrmModule.forRoot({ ...dataSourceOptions, retryAttempts: 3, retryDelay: 1000 }),
    MainApiClientModule.forRoot({
      baseUrl: mainApiUrl,
      timeoutMs: env.MAIN_API_TIMEOUT_MS,
      circuitBreaker: {
        failureThreshold: env.MAIN_API_BREAKER_THRESHOLD,
        cooldownMs: env.MAIN_API_BREAKER_COOLDOWN_MS,
      },
    }),
    AuthModule.forRoot({
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      keys: { jwks: { url: `${mainApiUrl}/v1/.well-known/jwks.json`, timeoutMs: env.MAIN_API_TIMEOUT_MS } },
      tokenStatus: {
        remote: {
          url: `${mainApiUrl}/v1/oauth/token-status`,
          timeoutMs: Math.min(env.MAIN_API_TIMEOUT_MS, 2_000),
        },
      },
      quota: quotaSettingsOf(env),
    }),
    MetricsModule,
    HealthModule.forRoot({ readinessChecks: mainApiReadinessChecks }),
    TenancyModule,
  ];
}
