import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { traceLogFields } from '../tracing/tracing';
import { describeRequest } from './request-context';
import { refusalOf } from './request-refusal';

// Probes and scrapes every few seconds would drown the request log.
const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/health/ready/self', '/metrics']);

/**
 * One line per answered request: `info` for success, `warn` for 4xx and for 503s refused by design
 * (with the reason as `reason`, see `noteRefusal`), `error` for other 5xx, with the request, status and
 * time in ms. Written from Fastify's `onResponse` hook, and only when the level
 * is enabled: pino-http's middleware built two child loggers per request whatever the level,
 * 5-8 % of a small read's CPU (bench/README.md, round 3).
 */
export function logCompletedRequests(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const refusal = status >= 500 ? refusalOf(request.raw) : undefined;
    const level = refusal ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (logger.isLevelEnabled(level) && !QUIET_ROUTES.has(request.routeOptions.url ?? '')) {
      logger[level](
        {
          req: describeRequest(request),
          ...traceLogFields(request),
          // The response itself: the logger's `res` serializer reads a sent response's status.
          res: reply.raw,
          responseTime: Math.round(reply.elapsedTime),
          ...(refusal ? { reason: refusal } : {}),
        },
        refusal ? 'request refused' : status >= 500 ? 'request errored' : 'request completed',
      );
    }
    done();
  });
}
