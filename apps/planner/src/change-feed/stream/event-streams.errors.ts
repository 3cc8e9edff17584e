import { ServiceUnavailableException } from '@nestjs/common';
import type { StreamCap } from '@platform/database';
import { AllocationError } from '../../allocations/allocation.errors';

/**
 * A stream ticket that cannot open a stream: unknown, older than 30 s and never used, its token
 * expired or its login revoked, or held by a live connection. 401, which `EventSource` does not
 * retry: the page asks for a new ticket.
 */
export const streamTicketInvalid = () =>
  new AllocationError(
    'StreamTicketInvalidError',
    'The ticket is unknown, expired, in use by another connection, or its login ended; ' +
      'POST /v2/events/stream-tickets for a new one',
    401,
  );

/**
 * A stream past a cap: the company's streams on all replicas, or this replica's. 503 with
 * Retry-After (the filter reads `retryAfterSeconds`), so the browser tries again, maybe on another
 * replica; the renderer names it TooManyStreamsError.
 */
export class TooManyStreamsError extends ServiceUnavailableException {
  constructor(cap: StreamCap, retryAfterSeconds: number) {
    super({
      message: `${cap === 'replica' ? 'This replica' : 'Your company'} has as many event streams open as it may; retry after Retry-After seconds`,
      retryAfterSeconds,
    });
  }
}
