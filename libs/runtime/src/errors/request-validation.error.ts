import type { ValidationError } from 'class-validator';
import type { FieldError } from './failure';

/**
 * Most field errors one answer lists: enough to fix a form, few enough that a hostile body cannot
 * turn 150 KB of input into megabytes of output (issue 20). Past it, one last entry says how many
 * were left out.
 */
export const MAX_FIELD_ERRORS = 50;

/** How many field messages the one-line `message` repeats (main-api's `errors` list has the rest). */
const MESSAGES_IN_SUMMARY = 5;

/** Thrown by the global ValidationPipe (and by services that validate by hand) for bad input. */
export class RequestValidationError extends Error {
  readonly fieldErrors: FieldError[];

  constructor(fieldErrors: FieldError[]) {
    const shown = capped(fieldErrors);
    super(summary(shown, fieldErrors.length));
    this.fieldErrors = shown;
    this.name = 'RequestValidationError';
  }

  static fromClassValidator(errors: ValidationError[]): RequestValidationError {
    return new RequestValidationError(flatten(errors, '', MAX_FIELD_ERRORS + 1));
  }
}

function capped(fieldErrors: FieldError[]): FieldError[] {
  if (fieldErrors.length <= MAX_FIELD_ERRORS) {
    return fieldErrors;
  }
  return [
    ...fieldErrors.slice(0, MAX_FIELD_ERRORS),
    {
      field: 'body',
      validation: 'tooManyErrors',
      message: `More than ${MAX_FIELD_ERRORS} fields are invalid; only the first ${MAX_FIELD_ERRORS} are listed`,
    },
  ];
}

function summary(shown: FieldError[], total: number): string {
  if (total === 0) {
    return 'Request validation failed';
  }
  const messages = shown.slice(0, MESSAGES_IN_SUMMARY).map((error) => error.message);
  const more = total > MESSAGES_IN_SUMMARY ? '; and more' : '';
  return `Request validation failed: ${messages.join('; ')}${more}`;
}

/** The field errors of a class-validator result, depth first, stopping once `limit` are found. */
function flatten(errors: ValidationError[], parentPath: string, limit: number): FieldError[] {
  const found: FieldError[] = [];
  for (const error of errors) {
    if (found.length >= limit) {
      break;
    }
    const field = parentPath ? `${parentPath}.${error.property}` : error.property;
    for (const [validation, message] of Object.entries(error.constraints ?? {})) {
      found.push({ field, validation, message: parentPath ? `${field}: ${message}` : message });
    }
    found.push(...flatten(error.children ?? [], field, limit - found.length));
  }
  return found.slice(0, limit);
}
