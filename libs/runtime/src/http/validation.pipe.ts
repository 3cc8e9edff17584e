import { ValidationPipe, type Type } from '@nestjs/common';
import { RequestValidationError } from '../errors/request-validation.error';

/**
 * The one validation pipe of every service: unknown fields are stripped, payloads become DTO
 * instances, and failures become a `RequestValidationError` each service renders in its own body.
 */
export function createValidationPipe(expectedType?: Type): ValidationPipe {
  return new ValidationPipe({
    // For a parameter whose type the compiler cannot record (routes built at run time).
    expectedType,
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    // One error per field, and a field that already failed (an array over its ArrayMaxSize, say) has
    // its items left unvalidated: validation costs what the request is allowed to be, not its size.
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => RequestValidationError.fromClassValidator(errors),
  });
}
