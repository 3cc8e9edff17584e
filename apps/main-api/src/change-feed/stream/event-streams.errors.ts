import { HttpStatus } from '@nestjs/common';
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
