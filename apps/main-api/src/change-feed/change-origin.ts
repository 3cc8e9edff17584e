import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import {
  CHANGE_ORIGIN_HEADER,
  CHANGE_ORIGIN_SIGNATURE_HEADER,
  isChangeOriginSignedBy,
  PrincipalContext,
} from '@platform/auth';
import { INTEGRATION_SOURCES } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import type { FastifyRequest } from 'fastify';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';
import { AccessDeniedError } from '../errors/main-api.errors';

/**
 * `X-Change-Origin: <source>` marks the changes of a request as coming in from that integration
 * source, so the change feed does not echo them back to its subscriptions. That hides a change from
 * those subscribers, so it counts only from the integrations service: with a valid
 * `X-Change-Origin-Signature` (CHANGE_ORIGIN_KEY, libs/auth). Anyone else sending it gets a 403.
 *
 * The origin travels with the request's principal; every statement of the request's units of work
 * sets it transaction-locally (`platform.change_origin`, TenantScope), where the change-feed triggers
 * read it.
 *
 * A guard that refuses only a malformed or unsigned header. It is registered after the
 * authentication guards, so it runs after them, and unlike a global interceptor it puts no rxjs
 * pipeline on every request (bench/README.md, round 3).
 */
@Injectable()
export class ChangeOriginGuard implements CanActivate {
  constructor(
    private readonly principals: PrincipalContext,
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const headers = context.switchToHttp().getRequest<FastifyRequest>().headers;
    const header = headers[CHANGE_ORIGIN_HEADER];
    if (header !== undefined) {
      const origin = Array.isArray(header) ? header[0] : header;
      if (!(INTEGRATION_SOURCES as readonly string[]).includes(origin)) {
        throw new RequestValidationError([
          {
            field: 'X-Change-Origin',
            validation: 'isIn',
            message: `X-Change-Origin must be one of ${INTEGRATION_SOURCES.join(', ')}`,
          },
        ]);
      }
      const signature = headers[CHANGE_ORIGIN_SIGNATURE_HEADER];
      const authorization = headers.authorization;
      if (
        this.env.CHANGE_ORIGIN_KEY === undefined ||
        typeof signature !== 'string' ||
        typeof authorization !== 'string' ||
        !isChangeOriginSignedBy(this.env.CHANGE_ORIGIN_KEY, origin, authorization, signature)
      ) {
        throw new AccessDeniedError('X-Change-Origin is reserved to the integrations service');
      }
      this.principals.setChangeOrigin(origin);
    }
    return true;
  }
}
