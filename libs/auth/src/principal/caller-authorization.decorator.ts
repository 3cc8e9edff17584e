import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * The caller's own Authorization header (the guard has verified it): forwarded to another service so
 * that it applies the caller's company and role, or kept for later checks of the token. A parameter
 * decorator of its own, not `@Headers()`, which would document the header as a parameter beside the
 * bearer security scheme.
 */
export const CallerAuthorization = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<{ headers: { authorization?: string } }>().headers.authorization ?? '',
);
