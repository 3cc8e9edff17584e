import type { IncomingMessage } from 'node:http';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import type { BaseServiceEnv } from '../config/base-service.env';
import { PlatformExceptionFilter } from '../errors/platform-exception.filter';
import { REQUEST_ID_HEADER, requestIdFor } from '../logging/request-id';
import { MetricsRegistry } from '../metrics/metrics.registry';
import type { ServiceDefinition } from './service-definition';
import { createValidationPipe } from './validation.pipe';

const OUTSIDE_PREFIX = [
  { path: 'health/live', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
];

/**
 * Builds a service exactly as it runs in production (Fastify, logging, validation, error body,
 * docs, metrics, shutdown hooks) without listening, so e2e tests exercise the real thing.
 */
export async function createServiceApp<Env extends BaseServiceEnv>(
  definition: ServiceDefinition<Env>,
  env: Env,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: env.BODY_LIMIT_BYTES,
    // The request id is decided once, here, and reused by the logger and the main-api client.
    genReqId: (request: IncomingMessage) => {
      const id = requestIdFor(request);
      (request as typeof request & { id?: string }).id = id;
      return id;
    },
    // Idle keep-alive sockets must not hold a graceful shutdown open.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    trustProxy: true,
  });

  const app = await NestFactory.create<NestFastifyApplication>(definition.rootModule(env), adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();

  const filter = new PlatformExceptionFilter(definition.renderError);
  app.useGlobalFilters(filter);
  app.useGlobalPipes(createValidationPipe());
  if (definition.globalPrefix) {
    app.setGlobalPrefix(definition.globalPrefix, { exclude: OUTSIDE_PREFIX });
  }

  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsRegistry);
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
  });
  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  setUpOpenApi(app, definition);
  await app.init();
  return app;
}

function setUpOpenApi(app: INestApplication, definition: ServiceDefinition<BaseServiceEnv>): void {
  const config = new DocumentBuilder()
    .setTitle(definition.title)
    .setDescription(definition.description)
    .setVersion(definition.version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', useGlobalPrefix: false });
}
