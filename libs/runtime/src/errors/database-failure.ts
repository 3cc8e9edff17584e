import type { QueryFailedError } from 'typeorm';
import type { NormalizedFailure } from './failure';

interface DriverError {
  code?: unknown;
  column?: unknown;
  constraint?: unknown;
  detail?: unknown;
}

/**
 * SQLSTATEs caused by the request's data rather than by the service (PostgreSQL appendix A): a
 * value the column cannot hold (class 22) or a constraint the row breaks (class 23). Validation is
 * meant to stop all of them first; this is the net under it, so a rule validation misses is still
 * the client's 400/409/422, never a 500 (issue 20).
 */
const DATA_EXCEPTIONS: Readonly<Record<string, string>> = {
  '22001': 'A value is longer than its field allows',
  '22003': 'A number is outside the range its field allows',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is outside the range its field allows',
  '22021': 'A value holds characters that are not valid UTF-8',
  '22025': 'A search pattern ends with an escape character',
  '22P02': 'A value does not have the type its field expects',
  '22P05': 'A value holds characters the database cannot store',
  '54000': 'A value is too long to store',
};

/** The failure a database error stands for, told to the client without SQL or row values. */
export function databaseFailure(exception: QueryFailedError<Error>): NormalizedFailure {
  const driverError = exception.driverError as DriverError;
  const code = typeof driverError.code === 'string' ? driverError.code : '';
  const dataMessage = DATA_EXCEPTIONS[code];
  if (dataMessage) {
    return { kind: 'malformed_request', status: 400, message: dataMessage };
  }
  switch (code) {
    case '23502': {
      const field = typeof driverError.column === 'string' ? driverError.column : 'body';
      const message = `${field} must not be null`;
      return {
        kind: 'validation',
        status: 400,
        message,
        fieldErrors: [{ field, validation: 'isNotNull', message }],
      };
    }
    case '23503': {
      // The detail reads `Key (client_id)=(7) is not present…`: only the column name is kept.
      const column = /^Key \(([a-z_][a-z0-9_]*)\)=/.exec(
        typeof driverError.detail === 'string' ? driverError.detail : '',
      )?.[1];
      const message = column
        ? `${column} refers to a record that does not exist, or one still in use refers to this`
        : 'The request refers to a record that does not exist, or one still in use refers to this';
      return { kind: 'unprocessable', status: 422, message };
    }
    case '23514':
      return {
        kind: 'unprocessable',
        status: 422,
        message: `The request breaks the rule ${String(driverError.constraint)}`,
      };
    case '23505':
    case '23P01':
      return { kind: 'conflict', status: 409, message: 'The request conflicts with an existing record' };
    default:
      return { kind: 'database', status: 500, message: 'The database could not complete the request' };
  }
}
