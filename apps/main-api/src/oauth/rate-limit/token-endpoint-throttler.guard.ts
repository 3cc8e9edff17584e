import { HttpException, HttpStatus, Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';

/**
 * Rate limits of the token endpoints (per IP and per client). A refusal is a 429 with `Retry-After`
 * in main-api's error body (AC007).
 */
@Injectable()
export class TokenEndpointThrottlerGuard extends ThrottlerGuard {
  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new HttpException(
      { message: 'Too many token requests; retry later', retryAfterSeconds: detail.timeToBlockExpire },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
