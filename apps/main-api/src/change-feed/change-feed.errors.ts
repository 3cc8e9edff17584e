import { HttpStatus } from '@nestjs/common';
import { MainApiErrorCode } from '../errors/main-api-error-code';
import { MainApiError } from '../errors/main-api.errors';

/**
 * A cursor behind the retention window: the events after it were pruned, so the consumer must read
 * again from after=0. 410 with AC003: decisions §4 lists no code for 410, and "not found" is what a
 * pruned cursor is (the events it points past no longer exist), not a validation failure (AC002).
 */
export class CursorExpiredError extends MainApiError {
  constructor(prunedThrough: string) {
    super(
      HttpStatus.GONE,
      MainApiErrorCode.NotFound,
      `CursorExpiredError: events up to cursor ${prunedThrough} are past the retention period; ` +
        'read again from after=0 and reconcile',
    );
  }
}
