import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { serviceSigningOf } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { AllocationError } from '../../allocations/allocation.errors';
import { PLANNER_ENV, type PlannerEnv } from '../../config/planner.env';

/** The path integrations signs for the watch (fixed, so a proxy's path prefix does not matter). */
export const PLANNER_FEED_WATCH_PATH = '/v2/events/watch';

/**
 * Lets through only the integrations service calling as itself (`X-Service-Signature` under
 * CHANGE_ORIGIN_KEY, libs/auth): no company's token can reach a route that spans companies.
 * Without CHANGE_ORIGIN_KEY nobody can, and integrations falls back to reading each feed.
 */
@Injectable()
export class IntegrationsServiceGuard implements CanActivate {
  constructor(@Inject(PLANNER_ENV) private readonly env: PlannerEnv) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (serviceSigningOf(this.env.CHANGE_ORIGIN_KEY, request, PLANNER_FEED_WATCH_PATH) !== 'integrations') {
      throw new AllocationError(
        'Unauthorized',
        'this route is for the integrations service: X-Service-Signature is missing, stale or wrong',
        401,
      );
    }
    return true;
  }
}
