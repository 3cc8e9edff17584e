import { isCalendarDate } from '@platform/contracts';
import { addDays, dayNumber, periodEndOf, periodStartOf } from '../common/calendar-periods';
import { TimeReportRangeError } from './time-report.errors';

export const TIME_REPORT_GRANULARITIES = ['day', 'week', 'month'] as const;
export type TimeReportGranularity = (typeof TIME_REPORT_GRANULARITIES)[number];

/** A year and a few days: a year's report starting on any weekday, and no longer scan of the entries. */
export const MAX_TIME_REPORT_DAYS = 370;

/**
 * One period of the report: `start`..`end` are the days it sums (the window cuts the first and the
 * last), `key` the first day of the whole period (the Monday of an ISO week, the 1st of a month), as
 * both the SQL and the planner label a period.
 */
export interface ReportPeriod {
  start: string;
  end: string;
  key: string;
}

/** Every period of from..to (both included), also those without any hours. */
export function reportPeriods(from: string, to: string, granularity: TimeReportGranularity): ReportPeriod[] {
  const periods: ReportPeriod[] = [];
  for (let start = from; start <= to;) {
    const last = periodEndOf(start, granularity);
    periods.push({ start, end: last < to ? last : to, key: periodStartOf(start, granularity) });
    start = addDays(last, 1);
  }
  return periods;
}

/**
 * `from` and `to` are real calendar days, from ≤ to, at most 370 days both included; else 400
 * naming the field at fault.
 */
export function assertReportRange(from: string, to: string): void {
  for (const [field, day] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isCalendarDate(day)) {
      throw new TimeReportRangeError(field, `${field} must be a real calendar day, YYYY-MM-DD`);
    }
  }
  if (from > to) {
    throw new TimeReportRangeError('to', `to (${to}) must not be before from (${from})`);
  }
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days > MAX_TIME_REPORT_DAYS) {
    throw new TimeReportRangeError(
      'to',
      `from..to spans ${days} days; at most ${MAX_TIME_REPORT_DAYS}, both included`,
    );
  }
}
