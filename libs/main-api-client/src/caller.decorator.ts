import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { CallerContext } from './main-api-client.options';

/** The caller's bearer token and request id, to forward on calls made for this request. */
export function callerContextOf(request: FastifyRequest): CallerContext {
  const authorization = request.headers.authorization;
  return { authorization, requestId: request.id };
}

/** Controller parameter: `@Caller() caller: CallerContext`. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): CallerContext =>
  callerContextOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
