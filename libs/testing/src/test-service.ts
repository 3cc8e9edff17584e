import { Module, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { runMigrations, type DatabaseEnv } from '@platform/database';
import { createServiceApp, loadEnv, type BaseServiceEnv, type ServiceDefinition } from '@platform/runtime';
import type { ClassConstructor } from 'class-transformer';
import type { DataSourceOptions } from 'typeorm';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestService<Env extends BaseServiceEnv> {
  app: NestFastifyApplication;
  env: Env;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestServiceOptions<Env extends BaseServiceEnv> {
  definition: ServiceDefinition<Env>;
  envClass: ClassConstructor<Env>;
  dataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string };
  /** Extra variables (e.g. MAIN_API_URL of a fake); DATABASE_URL is the test file's own database. */
  env?: Record<string, string>;
  /** Test-only controllers mounted beside the service's own (e.g. TestProbeController). */
  extraControllers?: Type[];
}

@Module({})
class TestHarnessModule {}

/** The web origin test services allow (CORS_ALLOWED_ORIGINS), as a browser app's would be. */
export const TEST_ALLOWED_ORIGIN = 'https://app.example.test';

/**
 * The real service (Fastify, filters, pipes, modules) on a fresh migrated database of its own,
 * configured through the same env validation as production. Requests go through `app.inject`.
 */
export async function startTestService<Env extends BaseServiceEnv>(
  options: TestServiceOptions<Env>,
): Promise<TestService<Env>> {
  const database = await createTestDatabase(options.definition.name);
  try {
    const env = loadEnv(options.envClass, {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PORT: '0',
      CORS_ALLOWED_ORIGINS: TEST_ALLOWED_ORIGIN,
      ...options.env,
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '4',
    });
    await runMigrations(options.dataSourceOptions(env));
    const { definition, extraControllers = [] } = options;
    const app = await createServiceApp(
      {
        ...definition,
        rootModule: (serviceEnv) => ({
          module: TestHarnessModule,
          imports: [definition.rootModule(serviceEnv)],
          controllers: extraControllers,
        }),
      },
      env,
    );
    await app.getHttpAdapter().getInstance().ready();
    return {
      app,
      env,
      database,
      async close() {
        await app.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
