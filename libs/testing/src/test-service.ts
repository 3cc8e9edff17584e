import { appendFileSync } from 'node:fs';
import { Module, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { runMigrations, type DatabaseEnv } from '@platform/database';
import { createServiceApp, loadEnv, type BaseServiceEnv, type ServiceDefinition } from '@platform/runtime';
import type { ClassConstructor } from 'class-transformer';
import type { DataSourceOptions } from 'typeorm';
import { OpenApiContract } from './openapi-contract';
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
  /**
   * How the service itself connects, once its database is migrated: variables that replace the
   * defaults (DATABASE_URL straight to the test database, as the runtime role), e.g. a pooler in
   * front of it. Migrations always run straight on the database, as the owner.
   */
  connection?(database: TestDatabase): Promise<Record<string, string>>;
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
    const variables = {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PORT: '0',
      CORS_ALLOWED_ORIGINS: TEST_ALLOWED_ORIGIN,
      // Counted and announced, never reached by a suite's bursts; the quota tests set their own.
      QUOTA_REQUESTS_PER_MINUTE: '1000000',
      ...options.env,
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '4',
    };
    const migrationEnv = loadEnv(options.envClass, variables);
    await runMigrations(options.dataSourceOptions(migrationEnv));
    const env = options.connection
      ? loadEnv(options.envClass, {
          ...variables,
          MIGRATION_DATABASE_URL: database.url,
          ...(await options.connection(database)),
        })
      : migrationEnv;
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
    const contractProblems = await checkAnswersAgainstDocument(app, definition.name);
    await app.getHttpAdapter().getInstance().ready();
    return {
      app,
      env,
      database,
      async close() {
        await app.close();
        await database.drop();
        if (process.env.CONTRACT_REPORT) {
          // Every difference, one per line, for a run over the whole suite (`CONTRACT_REPORT=file`).
          appendFileSync(process.env.CONTRACT_REPORT, contractProblems.map((line) => `${line}\n`).join(''));
        }
        if (contractProblems.length > 0) {
          throw new Error(
            `${contractProblems.length} answer(s) differ from openapi/${definition.name}.json:\n` +
              contractProblems.slice(0, 30).join('\n'),
          );
        }
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * Every answer the service gives in a test is checked against its committed OpenAPI document; what
 * differs is collected (with the test that caused it) and fails the file when the service closes, so
 * a route cannot drift from the document without a test noticing.
 */
async function checkAnswersAgainstDocument(app: NestFastifyApplication, service: string): Promise<string[]> {
  const contract = await OpenApiContract.of(service);
  const problems: string[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request, reply, payload) => {
      if (
        typeof payload !== 'string' &&
        !Buffer.isBuffer(payload) &&
        payload !== null &&
        payload !== undefined
      ) {
        return payload;
      }
      const found = contract.problemsWith({
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        contentType: reply.getHeader('content-type')?.toString(),
        body: payload === null || payload === undefined ? '' : payload.toString(),
      });
      const test = (
        globalThis as { expect?: { getState(): { currentTestName?: string } } }
      ).expect?.getState().currentTestName;
      problems.push(...found.map((problem) => `[${test ?? 'setup'}] ${problem}`));
      return payload;
    });
  return problems;
}
