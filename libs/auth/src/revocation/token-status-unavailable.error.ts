import { ServiceUnavailableException } from '@nestjs/common';

/**
 * A verified token whose status main-api could not confirm just now (timeout, network error, an
 * answer neither 2xx nor 401): refused with 503 and `Retry-After`, never taken as live, so a
 * revoked token gains nothing from a stalled main-api. An HttpException carrying
 * `retryAfterSeconds`, the same path as main-api's throttles: each service's filter (libs/runtime's
 * `normalizeFailure`) renders it as its upstream-unavailable body (`MainApiUnavailableError`) with
 * the `Retry-After` header.
 */
export class TokenStatusUnavailableError extends ServiceUnavailableException {
  constructor(readonly retryAfterSeconds: number) {
    super({
      message: 'main-api could not confirm that the access token is still valid; retry shortly',
      retryAfterSeconds,
    });
    this.name = 'TokenStatusUnavailableError';
  }
}
