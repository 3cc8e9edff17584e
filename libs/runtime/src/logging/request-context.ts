import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLS_ID, CLS_REQ, ClsServiceManager } from 'nestjs-cls';
import { traceLogFields } from '../tracing/tracing';

/**
 * Opens the request context (nestjs-cls) in Fastify's first hook, so everything after it sees the
 * request and, once authenticated, its caller: guards, handlers, repositories and log lines. Fastify
 * keeps the context across body parsing. A hook rather than Nest middleware, because middleware
 * costs middie and Nest's route matching on every request (bench/README.md, round 3).
 */
export function openRequestContext(fastify: FastifyInstance): void {
  const cls = ClsServiceManager.getClsService();
  fastify.addHook('onRequest', (request, _reply, done) => {
    cls.run(() => {
      cls.set(CLS_ID, request.id);
      cls.set(CLS_REQ, request);
      done();
    });
  });
}

/**
 * The request being served, if any, and its trace when traced: what each log line made during it
 * carries (pino `mixin`).
 */
export function currentRequestLogFields(): object {
  const cls = ClsServiceManager.getClsService();
  const request = cls.isActive() ? cls.get<FastifyRequest | undefined>(CLS_REQ) : undefined;
  return request ? { req: describeRequest(request), ...traceLogFields(request) } : {};
}

/** A request in a log line: id, method and URL only, never headers or body. */
export function describeRequest(request: { id: string; method: string; url: string }): object {
  return { id: request.id, method: request.method, url: request.url };
}
