import { HttpStatus } from '@nestjs/common';
import { constraintViolationOf } from '@platform/database';

/**
 * The one place where main-api's database constraints become named API errors: the constraint holds
 * under concurrency, and its violation answers as the business rule it enforces (422, AC004).
 */
const CONSTRAINT_MESSAGES: Readonly<Record<string, string>> = {
  users_email_lower_key: 'A user with this e-mail already exists',
  user_leaves_no_overlap: 'The leave overlaps another leave of the same user',
};

export function businessRuleOf(exception: unknown): { status: number; message: string } | undefined {
  const violation = constraintViolationOf(exception);
  const message = violation ? CONSTRAINT_MESSAGES[violation.constraint] : undefined;
  return message ? { status: HttpStatus.UNPROCESSABLE_ENTITY, message } : undefined;
}
