import { Module, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Writable } from 'node:stream';
import { BaseServiceEnv } from '../config/base-service.env';
import { loadEnv } from '../config/load-env';
import { createServiceApp } from '../http/create-service-app';
import { loggingModule } from '../logging/logging.module';
import { MetricsModule } from '../metrics/metrics.module';

@Module({})
class ProbeModule {}

class ProbeErrorBody {}

/** The settings of a probe service: a database URL it never uses, no logs, and `settings`. */
export function probeEnv(settings: Record<string, string | undefined> = {}): BaseServiceEnv {
  const defined = Object.fromEntries(
    Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return loadEnv(BaseServiceEnv, {
    DATABASE_URL: 'postgres://unused@127.0.0.1:5432/unused',
    LOG_LEVEL: 'silent',
    ...defined,
  });
}

/**
 * A service built by `createServiceApp` exactly as the real ones are, with the given controllers
 * (for libs/runtime's own specs: what a service does around its routes).
 */
export async function probeService(
  env: BaseServiceEnv,
  controllers: Type[],
  options: { globalPrefix?: string } = {},
): Promise<NestFastifyApplication> {
  const app = await createServiceApp(
    {
      name: 'probe',
      title: 'probe',
      description: 'probe',
      version: '1',
      ...(options.globalPrefix !== undefined && { globalPrefix: options.globalPrefix }),
      rootModule: (serviceEnv) => ({
        module: ProbeModule,
        imports: [loggingModule('probe', serviceEnv), MetricsModule],
        controllers,
      }),
      renderError: (failure) => ({ status: failure.status, body: { message: failure.message } }),
      errorBody: ProbeErrorBody,
    },
    env,
  );
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** A stream for pino that parses each JSON line it is given into `lines`. */
export function jsonLineSink<Line>(lines: Line[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Line),
      );
      done();
    },
  });
}
