import type { ClassConstructor } from 'class-transformer';
import type { BaseServiceEnv } from '../config/base-service.env';
import { EnvValidationError } from '../config/env-validation.error';
import { loadEnvOrExit } from '../config/load-env';
import { listenForMetrics } from '../metrics/metrics-server';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { startTracing } from '../tracing/tracing';
import { createServiceApp } from './create-service-app';
import type { ServiceDefinition } from './service-definition';

/** The `main.ts` of every service: validated env, the app, listen; any startup failure exits 1. */
export async function runService<Env extends BaseServiceEnv>(
  definition: ServiceDefinition<Env>,
  envClass: ClassConstructor<Env>,
): Promise<void> {
  const env = loadEnvOrExit(definition.name, envClass);
  try {
    // Before the app: its first requests are traced too.
    const tracing = await startTracing(definition.name, env);
    const app = await createServiceApp(definition, env);
    // METRICS_PORT: /metrics on a listener of its own (the API's port then answers 404 there).
    const metricsServer =
      env.METRICS_PORT === undefined
        ? undefined
        : await listenForMetrics(app.get(MetricsRegistry), env.METRICS_PORT, env.HOST);
    // On SIGTERM: stop accepting connections, let in-flight requests finish, close the pool, exit 0.
    // Kubernetes follows SIGTERM with SIGKILL after its grace period; if in-flight requests outlast
    // SHUTDOWN_GRACE_MS, stop on our own terms before that, with 1.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        setTimeout(() => process.exit(1), env.SHUTDOWN_GRACE_MS).unref();
        // The spans of the last requests are exported before the process ends.
        app
          .close()
          .then(() => metricsServer?.close())
          .then(() => tracing?.shutdown())
          .then(
            () => process.exit(0),
            () => process.exit(1),
          );
      });
    }
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    if (error instanceof EnvValidationError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${definition.name}: failed to start: ${describeStartupError(error)}\n`);
    process.exit(1);
  }
}

function describeStartupError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as Error & { code?: string }).code;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
