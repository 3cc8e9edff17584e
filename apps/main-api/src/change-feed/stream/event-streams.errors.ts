import { HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import type { StreamCap } from '@platform/database';
import { MainApiErrorCode } from '../../errors/main-api-error-code';
import { MainApiError } from '../../errors/main-api.errors';

/**
 * A stream ticket that cannot open a stream: unknown, older than 30 s and never used, its token
 * expired or its login revoked, or held by a live connection. 401, which `EventSource` does not
 * retry: the page asks for a new ticket.
 */
export class StreamTicketInvalidError extends MainApiError {
  constructor() {
    super(
      HttpStatus.UNAUTHORIZED,
      MainApiErrorCode.Unauthenticated,
      'StreamTicketInvalid: the ticket is unknown, expired, in use by another connection, or its login ended; ' +
        'POST /v1/events/stream-tickets for a new one',
    );
  }
}

/**
 * A stream past a cap: the company's streams on all replicas, or this replica's. 503 with
 * Retry-After (the filter reads `retryAfterSeconds`), so the browser tries again, maybe on another
 * replica.
 */
export class TooManyStreamsError extends ServiceUnavailableException {
  constructor(cap: StreamCap, retryAfterSeconds: number) {
    super({
      message: `TooManyStreams: ${cap === 'replica' ? 'this replica' : 'your company'} has as many event streams open as it may; retry shortly`,
      retryAfterSeconds,
    });
  }
}
