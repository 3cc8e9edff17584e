import { isCalendarDate } from '@platform/contracts';
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

const DAY_MS = 86_400_000;

/** Days since 1970-01-01. */
function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function dayOf(dayCount: number): string {
  return new Date(dayCount * DAY_MS).toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  return dayOf(dayNumber(day) + days);
}

/** The first day of the period holding `day`: itself, its ISO week's Monday, or its month's 1st. */
export function periodKeyOf(day: string, granularity: TimeReportGranularity): string {
  switch (granularity) {
    case 'day':
      return day;
    case 'week': {
      const days = dayNumber(day);
      // 1970-01-01 was a Thursday: 3 days after a Monday.
      return dayOf(days - ((((days + 3) % 7) + 7) % 7));
    }
    case 'month':
      return `${day.slice(0, 7)}-01`;
  }
}

/** The last day of the period holding `day`. */
function periodLastDayOf(day: string, granularity: TimeReportGranularity): string {
  switch (granularity) {
    case 'day':
      return day;
    case 'week':
      return addDays(periodKeyOf(day, 'week'), 6);
    case 'month': {
      const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
      return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    }
  }
}

/** Every period of from..to (both included), also those without any hours. */
export function reportPeriods(from: string, to: string, granularity: TimeReportGranularity): ReportPeriod[] {
  const periods: ReportPeriod[] = [];
  for (let start = from; start <= to;) {
    const last = periodLastDayOf(start, granularity);
    periods.push({ start, end: last < to ? last : to, key: periodKeyOf(start, granularity) });
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
