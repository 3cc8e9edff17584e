import { isCalendarDate } from '@platform/contracts';
import { RequestValidationError } from './request-validation.error';

/**
 * A list's `from` and `to` days (both optional, both included): each a real date, `to` not before
 * `from`. Refused as the 400 of the field at fault.
 */
export function assertDayWindow(from: string | undefined, to: string | undefined): void {
  for (const [field, day] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (day !== undefined && !isCalendarDate(day)) {
      throw new RequestValidationError([
        { field, validation: 'isCalendarDate', message: `${field} must be a real date YYYY-MM-DD` },
      ]);
    }
  }
  if (from !== undefined && to !== undefined && from > to) {
    throw new RequestValidationError([
      { field: 'to', validation: 'notBeforeFrom', message: 'to must not be before from' },
    ]);
  }
}
