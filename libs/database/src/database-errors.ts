import { QueryFailedError } from 'typeorm';

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_EXCLUSION_VIOLATION = '23P01';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_CHECK_VIOLATION = '23514';

export interface ConstraintViolation {
  code: string;
  constraint: string;
}

/**
 * The constraint a failed statement violated, if any. Services map constraint names to their named
 * errors in one place; the driver's message and detail (they contain SQL and values) never leave.
 */
export function constraintViolationOf(error: unknown): ConstraintViolation | undefined {
  if (!(error instanceof QueryFailedError)) {
    return undefined;
  }
  const driverError = error.driverError as { code?: unknown; constraint?: unknown };
  if (typeof driverError.code !== 'string' || typeof driverError.constraint !== 'string') {
    return undefined;
  }
  return { code: driverError.code, constraint: driverError.constraint };
}
