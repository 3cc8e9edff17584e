import { RequestValidationError } from '@platform/runtime';
import { AccessDeniedError } from '../errors/main-api.errors';

/** Role 6 reads no time; a role 4-5 token without a user has no own time to read (403 AC006). */
export class TimeReportNotAllowedError extends AccessDeniedError {
  constructor(reason: string) {
    super(`TimeReportNotAllowed: ${reason}`);
  }
}

/** A `from`/`to` that makes no report: 400 naming the field. */
export class TimeReportRangeError extends RequestValidationError {
  constructor(field: 'from' | 'to', message: string) {
    super([{ field, validation: 'timeReportRange', message }]);
  }
}

/** A cursor that is not the `next_cursor` of an answer with the same `group_by`: 400 naming `cursor`. */
export class TimeReportCursorError extends RequestValidationError {
  constructor() {
    super([
      {
        field: 'cursor',
        validation: 'timeReportCursor',
        message: 'cursor must be the next_cursor of a previous answer with the same group_by',
      },
    ]);
  }
}
