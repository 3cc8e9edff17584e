import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { traceLogFields } from '../tracing/tracing';
import { describeRequest } from './request-context';

// Probes and scrapes every few seconds would drown the request log.
const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/health/ready/self', '/metrics']);

/**
 * One line per answered request: `info` for success, `warn` for 4xx, `error` for 5xx, with the
 * request, status and time in ms. Written from Fastify's `onResponse` hook, and only when the level
 * is enabled: pino-http's middleware built two child loggers per request whatever the level,
 * 5-8 % of a small read's CPU (bench/README.md, round 3).
 */
export function logCompletedRequests(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (logger.isLevelEnabled(level) && !QUIET_ROUTES.has(request.routeOptions.url ?? '')) {
      logger[level](
        {
          req: describeRequest(request),
          ...traceLogFields(request),
          // The response itself: the logger's `res` serializer reads a sent response's status.
          res: reply.raw,
          responseTime: Math.round(reply.elapsedTime),
        },
        status >= 500 ? 'request errored' : 'request completed',
      );
    }
    done();
  });
}
