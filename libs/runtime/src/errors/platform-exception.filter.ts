import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BatchFailedError } from '../http/batch-failed.error';
import { PreconditionFailedError } from '../http/conditional-requests';
import { noteRefusal } from '../logging/request-refusal';
import type { FailureKind, NormalizedFailure } from './failure';
import { describeForLog, normalizeFailure } from './normalize-failure';

export interface RenderedError {
  status: number;
  body: object;
}

/**
 * How one service writes its error body (docs/spec/decisions.md §4). It receives the raw exception too, so the
 * service's own domain errors can be rendered with their names and codes before the generic kinds.
 */
export type ErrorRenderer = (failure: NormalizedFailure, exception: unknown) => RenderedError;

/** The single exception filter of a service: everything thrown ends here, rendered by that service. */
@Catch()
export class PlatformExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(private readonly render: ErrorRenderer) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const { status, body, retryAfterSeconds } = this.toResponse(exception, request);
    if (retryAfterSeconds !== undefined) {
      void reply.header('retry-after', String(retryAfterSeconds));
    }
    // A 412 shows the resource as it is now, and its tag, so the client can merge and retry.
    const current = exception instanceof PreconditionFailedError ? exception.current : undefined;
    if (current) {
      void reply.header('etag', current.etag);
    }
    // An atomic batch that failed shows what each of its operations answered.
    const results = exception instanceof BatchFailedError ? { results: exception.results } : {};
    void reply.status(status).send(current ? { ...body, current: current.body } : { ...body, ...results });
  }

  /** Also used by the Fastify error handler for errors raised before Nest routing (body parsing). */
  toResponse(exception: unknown, request?: FastifyRequest): RenderedError & { retryAfterSeconds?: number } {
    const failure = normalizeFailure(exception);
    const rendered = this.render(failure, exception);
    if (rendered.status >= 500 && isRefusal(failure.kind)) {
      // Answered by design (main-api unavailable, a token status it cannot confirm, shutting down):
      // the request's own line says so once, at warn (logCompletedRequests), with this reason.
      const refusal = {
        type: exception instanceof Error ? exception.name : typeof exception,
        message: failure.message,
      };
      if (request) {
        noteRefusal(request.raw, refusal);
      } else {
        this.logger.warn({ reason: refusal }, `request refused with ${rendered.status}`);
      }
    } else if (rendered.status >= 500) {
      this.logger.error(
        { err: describeForLog(exception), method: request?.method, url: request?.url },
        `request failed with ${rendered.status}`,
      );
    }
    return { ...rendered, retryAfterSeconds: failure.retryAfterSeconds };
  }
}

/** Failures the service answers on purpose: not a fault of its own, so not an error line. */
function isRefusal(kind: FailureKind): boolean {
  return kind === 'upstream_unavailable' || kind === 'shutting_down';
}
