import type { IncomingMessage } from 'node:http';
import { NotFoundException, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { BaseServiceEnv } from '../config/base-service.env';
import { fastifyTrustProxy } from '../config/trust-proxy.setting';
import { PlatformExceptionFilter } from '../errors/platform-exception.filter';
import { ShuttingDownError } from '../errors/upstream-unavailable.error';
import { openRequestContext } from '../logging/request-context';
import { REQUEST_ID_HEADER, requestIdFor } from '../logging/request-id';
import { logCompletedRequests } from '../logging/request-log';
import { METRICS_ROUTE } from '../metrics/metrics-server';
import { MetricsRegistry } from '../metrics/metrics.registry';
import { traceRequests, tracingEnabled } from '../tracing/tracing';
import { bodyShapeError } from './body-depth';
import { answerConditionalReads } from './conditional-requests';
import { answerSparseFieldsets } from './sparse-fieldsets';
import { corsOptions } from './cors';
import { DOCS_ROUTE, refuseFramingOfDocs } from './docs-headers';
import { jsonBodyParser } from './json-body';
import { buildOpenApiDocument, OUTSIDE_PREFIX } from './openapi-document';
import type { ServiceDefinition } from './service-definition';
import { RejectNulCharactersPipe } from './reject-nul.pipe';
import { createValidationPipe } from './validation.pipe';

/**
 * Builds a service exactly as it runs in production (Fastify, logging, validation, error body,
 * docs, metrics, shutdown hooks) without listening, so e2e tests exercise the real thing.
 */
export async function createServiceApp<Env extends BaseServiceEnv>(
  definition: ServiceDefinition<Env>,
  env: Env,
): Promise<NestFastifyApplication> {
  const filter = new PlatformExceptionFilter(definition.renderError);
  const adapter = new FastifyAdapter({
    // Errors the router raises before Nest sees the request (a malformed URL, an over-long path
    // parameter) get the service's error body too.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      const { status, body } = filter.toResponse(error, request);
      void reply.status(status).send(body);
    },
    bodyLimit: env.BODY_LIMIT_BYTES,
    // The request id is decided once, here, and reused by the logger and the main-api client.
    genReqId: (request: IncomingMessage) => {
      const id = requestIdFor(request);
      (request as typeof request & { id?: string }).id = id;
      return id;
    },
    // Idle keep-alive sockets must not hold a graceful shutdown open.
    forceCloseConnections: 'idle',
    // Answered by the onRequest hook below, in the service's own error body.
    return503OnClosing: false,
    // Only the proxies the deployment names: trusting any sender let a caller choose its own IP.
    trustProxy: fastifyTrustProxy(env.TRUST_PROXY),
  });

  const app = await NestFactory.create<NestFastifyApplication>(definition.rootModule(env), adapter, {
    bufferLogs: true,
    abortOnError: false,
    rawBody: definition.rawBody ?? false,
  });
  app.useLogger(app.get(Logger));
  // Browsers only (CORS_ALLOWED_ORIGINS): without an origin list, no CORS headers at all.
  if (env.CORS_ALLOWED_ORIGINS.length > 0) {
    app.enableCors(corsOptions(env.CORS_ALLOWED_ORIGINS, env.CORS_ALLOWED_HEADERS));
  }

  app.useGlobalFilters(filter);
  app.useGlobalPipes(new RejectNulCharactersPipe(), createValidationPipe());
  if (definition.globalPrefix) {
    app.setGlobalPrefix(definition.globalPrefix, { exclude: OUTSIDE_PREFIX });
  }

  const fastify = app.getHttpAdapter().getInstance();
  // Registered before `init`, so Nest keeps it rather than its own (it still sets rawBody if asked).
  app.useBodyParser('application/json', { bodyLimit: env.BODY_LIMIT_BYTES }, jsonBodyParser(fastify));
  const metrics = app.get(MetricsRegistry);
  openRequestContext(fastify);
  if (tracingEnabled()) {
    traceRequests(fastify);
  }
  // While shutting down, every answer closes its connection: a keep-alive client must not hold the
  // server open after its last request, so the process exits as soon as in-flight requests are done.
  // The hooks take callbacks rather than being async: a promise per hook per request is measurable.
  let closing = false;
  fastify.addHook('preClose', (done: () => void) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (closing) {
      // A request that arrives on a kept-alive connection while draining: 503 in the service's body
      // (Fastify's own would be a body no document describes), the client retries elsewhere.
      const { status, body, retryAfterSeconds } = filter.toResponse(new ShuttingDownError(), request);
      void reply
        .status(status)
        .header('retry-after', String(retryAfterSeconds ?? 1))
        .send(body);
      return;
    }
    done();
  });
  if (env.METRICS_PORT !== undefined) {
    // Metrics on their own port (listenForMetrics): the API's port answers as for any unknown route.
    fastify.addHook('onRequest', (request, reply, done) => {
      if (request.url.split('?')[0] !== METRICS_ROUTE) {
        done();
        return;
      }
      const { status, body } = filter.toResponse(
        new NotFoundException(`Cannot ${request.method} ${METRICS_ROUTE}`),
        request,
      );
      void reply.status(status).send(body);
    });
  }
  // Once, right after parsing and before anything that walks the body recursively or per item.
  fastify.addHook('preValidation', (request, _reply, done) => {
    done(bodyShapeError(request.body));
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (closing) {
      void reply.header('connection', 'close');
    }
    // The one place that keeps authenticated answers out of every cache (browser, proxy), for all
    // three services and every answer, errors included: any request that carried a credential in
    // Authorization (a bearer token, or a client's Basic credentials at the token endpoint). Keyed
    // on the header rather than on the route's guard, so no route can forget it; a public route
    // called with a token is uncached too, which costs nothing. The token endpoint also sets it
    // itself (RFC 6749 §5.1), for credentials sent in the body.
    if (request.headers.authorization !== undefined) {
      void reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  // The root logger of `loggingModule`, built by nestjs-pino with the app's Logger above.
  answerConditionalReads(fastify);
  logCompletedRequests(fastify, PinoLogger.root);
  refuseFramingOfDocs(fastify);
  const document = setUpOpenApi(app, definition);
  // From the document: the fields each list may select are its result schema's.
  answerSparseFieldsets(fastify, document, filter);
  await app.init();
  return app;
}

function setUpOpenApi(app: INestApplication, definition: ServiceDefinition<BaseServiceEnv>): OpenAPIObject {
  const document = buildOpenApiDocument(app, definition);
  SwaggerModule.setup(DOCS_ROUTE, app, document, {
    jsonDocumentUrl: `${DOCS_ROUTE}-json`,
    useGlobalPrefix: false,
  });
  return document;
}
