import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NormalizedFailure } from './failure';
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
    void reply.status(status).send(body);
  }

  /** Also used by the Fastify error handler for errors raised before Nest routing (body parsing). */
  toResponse(exception: unknown, request?: FastifyRequest): RenderedError & { retryAfterSeconds?: number } {
    const failure = normalizeFailure(exception);
    const rendered = this.render(failure, exception);
    if (rendered.status >= 500) {
      this.logger.error(
        { err: describeForLog(exception), method: request?.method, url: request?.url },
        `request failed with ${rendered.status}`,
      );
    }
    return { ...rendered, retryAfterSeconds: failure.retryAfterSeconds };
  }
}
