import { HttpStatus, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { serviceSigningOf } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { MAIN_API_ENV, type MainApiEnv } from '../../config/main-api.env';
import { MainApiErrorCode } from '../../errors/main-api-error-code';
import { MainApiError } from '../../errors/main-api.errors';

/**
 * The path integrations signs for the watch (fixed, so a proxy's path prefix does not matter),
 * followed by the query string exactly as received.
 */
export const CHANGE_FEED_WATCH_PATH = '/v1/events/watch';

/**
 * Lets through only the integrations service calling as itself (`X-Service-Signature` under
 * CHANGE_ORIGIN_KEY, libs/auth): no company's token can reach a route that spans companies.
 * Without CHANGE_ORIGIN_KEY nobody can, and integrations falls back to reading each feed.
 */
@Injectable()
export class IntegrationsServiceGuard implements CanActivate {
  constructor(@Inject(MAIN_API_ENV) private readonly env: MainApiEnv) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (serviceSigningOf(this.env.CHANGE_ORIGIN_KEY, request, CHANGE_FEED_WATCH_PATH) !== 'integrations') {
      throw new MainApiError(
        HttpStatus.UNAUTHORIZED,
        MainApiErrorCode.Unauthenticated,
        'this route is for the integrations service: X-Service-Signature is missing, stale or wrong',
      );
    }
    return true;
  }
}
