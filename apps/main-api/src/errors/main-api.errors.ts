import { HttpStatus } from '@nestjs/common';
import type { FieldError } from '@platform/runtime';
import { MainApiErrorCode } from './main-api-error-code';

/**
 * A failure main-api answers on purpose: its status, code (docs/spec/decisions.md §4) and message are
 * chosen where it is thrown, and the error renderer writes them as they are. Features throw the named
 * subclasses below or declare their own in `<feature>.errors.ts`.
 */
export class MainApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: MainApiErrorCode,
    message: string,
    readonly fieldErrors?: FieldError[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 404 AC003; `resource` names what is missing, e.g. `Team 7`. */
export class ResourceNotFoundError extends MainApiError {
  constructor(resource: string) {
    super(HttpStatus.NOT_FOUND, MainApiErrorCode.NotFound, `${resource} not found`);
  }
}

/** A well-formed request a business rule refuses: 422 AC004. */
export class BusinessRuleError extends MainApiError {
  constructor(message: string) {
    super(HttpStatus.UNPROCESSABLE_ENTITY, MainApiErrorCode.BusinessRuleViolated, message);
  }
}

/** The request collides with another one in flight or just finished: 409, a business rule (AC004). */
export class ConflictError extends MainApiError {
  constructor(message: string) {
    super(HttpStatus.CONFLICT, MainApiErrorCode.BusinessRuleViolated, message);
  }
}

/** An authenticated caller whose role or identity may not do this: 403 AC006. */
export class AccessDeniedError extends MainApiError {
  constructor(message: string) {
    super(HttpStatus.FORBIDDEN, MainApiErrorCode.Forbidden, message);
  }
}
