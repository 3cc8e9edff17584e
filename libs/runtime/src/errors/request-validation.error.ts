import type { ValidationError } from 'class-validator';
import type { FieldError } from './failure';

/** Thrown by the global ValidationPipe (and by services that validate by hand) for bad input. */
export class RequestValidationError extends Error {
  constructor(readonly fieldErrors: FieldError[]) {
    super(
      fieldErrors.length > 0
        ? `Request validation failed: ${fieldErrors.map((error) => error.message).join('; ')}`
        : 'Request validation failed',
    );
    this.name = 'RequestValidationError';
  }

  static fromClassValidator(errors: ValidationError[]): RequestValidationError {
    return new RequestValidationError(flatten(errors, ''));
  }
}

function flatten(errors: ValidationError[], parentPath: string): FieldError[] {
  return errors.flatMap((error) => {
    const field = parentPath ? `${parentPath}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([validation, message]) => ({
      field,
      validation,
      message: parentPath ? `${field}: ${message}` : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
