import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The caller's own Authorization header, forwarded to the planner so that it applies the caller's
 * company and role. A parameter decorator of its own, not `@Headers()`, which would document the
 * header as a parameter beside the bearer security scheme.
 */
export const CallerAuthorization = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '',
);
