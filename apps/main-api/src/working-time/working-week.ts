import { RequestValidationError } from '@platform/runtime';
import type { WorkingTimeEntryInputDto } from './dto/working-time.dto';

/** Today in UTC, `YYYY-MM-DD`: the day the interface's working-time routes read and write. */
export function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A week names each day at most once, and each day's start comes before its end; else the 400. */
export function assertValidWeek(entries: readonly WorkingTimeEntryInputDto[]): void {
  const days = entries.map((entry) => entry.day_of_week);
  if (new Set(days).size !== days.length) {
    throw new RequestValidationError([
      {
        field: 'entries',
        validation: 'uniqueDays',
        message: 'entries must name each day_of_week at most once',
      },
    ]);
  }
  entries.forEach((entry, index) => {
    if (entry.start_at >= entry.end_at) {
      throw new RequestValidationError([
        {
          field: `entries.${index}.start_at`,
          validation: 'beforeEndAt',
          message: `entries.${index}.start_at must be before end_at`,
        },
      ]);
    }
  });
}
