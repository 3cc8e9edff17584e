import { constraintViolationOf } from '@platform/database';
import { BusinessRuleError, ConflictError, type MainApiError } from './main-api.errors';

/**
 * The one place where main-api's database constraints become named API errors: the constraint holds
 * under concurrency, and its violation answers as the business rule it enforces (422, AC004).
 * Constraints not listed here get the generic database answer (libs/runtime).
 */
const CONSTRAINT_ERRORS: ReadonlyMap<string, () => MainApiError> = new Map([
  ['users_email_lower_key', () => new BusinessRuleError('A user with this e-mail already exists')],
  [
    'holidays_calendar_date_key',
    () => new BusinessRuleError('The calendar already has a holiday on that date: change that one instead'),
  ],
  [
    'user_holiday_calendars_user_from_key',
    () => new BusinessRuleError('The person already has a holiday calendar from that date: remove it first'),
  ],
  [
    'working_schedules_user_from_key',
    () =>
      new BusinessRuleError(
        'The person already has a working schedule from that date: change that one (PUT) instead',
      ),
  ],
  [
    // Raised by the trigger time_entries_guard (migration BillableTime), whichever route wrote.
    'time_entries_period_locked',
    () =>
      new ConflictError(
        "TimesheetLocked: the entry's day (or the day it would move to) is on or before the company's " +
          'timesheet lock (GET /v1/timesheet-lock); time up to that day can no longer change',
      ),
  ],
  [
    'time_entries_source_external_id_key',
    () =>
      new ConflictError(
        'DuplicateExternalId: a time entry of this source already has this external_id; ' +
          'POST /v1/time-entries/upsert (or /v1/hours/batch) updates it',
      ),
  ],
  [
    'user_leaves_no_overlap',
    () => new BusinessRuleError('The leave overlaps another leave of the same user'),
  ],
]);

/** The named error a violated constraint stands for, if main-api names it. */
export function constraintErrorOf(exception: unknown): MainApiError | undefined {
  const violation = constraintViolationOf(exception);
  return violation ? CONSTRAINT_ERRORS.get(violation.constraint)?.() : undefined;
}
