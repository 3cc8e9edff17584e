import { isCalendarDate } from '@platform/contracts';
import { ForecastRangeError } from './forecast.errors';

export const FORECAST_GRANULARITIES = ['week', 'month'] as const;
export type ForecastGranularity = (typeof FORECAST_GRANULARITIES)[number];

/** Ten years of weeks: a longer series is no forecast anyone reads, and costs a long answer. */
export const MAX_FORECAST_PERIODS = 520;

/** One period of a series: its first and last day, `YYYY-MM-DD`. */
export interface ForecastPeriod {
  start: string;
  end: string;
}

/** The days a series covers: from the first day of its first period to the last day of its last. */
export interface ForecastRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const LAST_DAY = '9999-12-31';

/** Days since 1970-01-01 (ISO parsing reads years below 100 as they are, unlike Date.UTC). */
function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function dayOf(dayCount: number): string {
  return new Date(dayCount * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return dayOf(dayNumber(day) + days);
}

/** The Monday of the ISO week, or the 1st of the month, that holds `day`. */
export function periodStartOf(day: string, granularity: ForecastGranularity): string {
  switch (granularity) {
    case 'week': {
      const days = dayNumber(day);
      // 1970-01-01 was a Thursday: 3 days after a Monday.
      const sinceMonday = (((days + 3) % 7) + 7) % 7;
      return dayOf(days - sinceMonday);
    }
    case 'month':
      return `${day.slice(0, 7)}-01`;
  }
}

/** The Sunday of the ISO week, or the last day of the month, that holds `day`. */
export function periodEndOf(day: string, granularity: ForecastGranularity): string {
  const start = periodStartOf(day, granularity);
  switch (granularity) {
    case 'week':
      return addDays(start, 6);
    case 'month': {
      const [year, month] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
      const next = month === 12 ? `${pad(year + 1, 4)}-01-01` : `${pad(year, 4)}-${pad(month + 1, 2)}-01`;
      return addDays(next, -1);
    }
  }
}

/** How many periods from the one holding `from` to the one holding `to` (both included). */
function periodCount(from: string, to: string, granularity: ForecastGranularity): number {
  switch (granularity) {
    case 'week':
      return (dayNumber(periodStartOf(to, 'week')) - dayNumber(periodStartOf(from, 'week'))) / 7 + 1;
    case 'month':
      return monthIndex(to) - monthIndex(from) + 1;
  }
}

/** Every period of the range, also those without any hours. */
export function periodsOf(range: ForecastRange, granularity: ForecastGranularity): ForecastPeriod[] {
  const periods: ForecastPeriod[] = [];
  for (let start = range.from; start <= range.to; start = addDays(periodEndOf(start, granularity), 1)) {
    periods.push({ start, end: periodEndOf(start, granularity) });
  }
  return periods;
}

/**
 * The range of a series: `from` widened to the start of its period, `to` to the end of its period;
 * each one not asked for is its default. Refused (400 naming the field the caller sent, `from` when
 * neither) when a day is not a calendar day, when from comes after to, or past 520 periods.
 */
export function forecastRange(
  asked: { from?: string; to?: string },
  defaults: { from: string; to: string },
  granularity: ForecastGranularity,
): ForecastRange {
  assertCalendarDays(asked);
  const blamed = asked.to !== undefined ? 'to' : 'from';
  const from = periodStartOf(asked.from ?? defaults.from, granularity);
  const lastDay = asked.to ?? defaults.to;
  if (from > lastDay) {
    throw new ForecastRangeError(
      blamed,
      `from (${from}, its period's start) must not come after to (${lastDay})`,
    );
  }
  // A period ending past 9999-12-31 would have no YYYY-MM-DD.
  if (dayNumber(lastDay) + 31 > dayNumber(LAST_DAY)) {
    throw new ForecastRangeError(blamed, `${blamed} must be before ${addDays(LAST_DAY, -31)}`);
  }
  const count = periodCount(from, lastDay, granularity);
  if (count > MAX_FORECAST_PERIODS) {
    throw new ForecastRangeError(
      blamed,
      `from..to spans ${count} periods of a ${granularity}; at most ${MAX_FORECAST_PERIODS}`,
    );
  }
  return { from, to: periodEndOf(lastDay, granularity) };
}

/** `from` and `to`, where given, are real calendar days (2026-02-30 is not); else 400 naming the field. */
export function assertCalendarDays(asked: { from?: string; to?: string }): void {
  for (const field of ['from', 'to'] as const) {
    const day = asked[field];
    if (day !== undefined && !isCalendarDate(day)) {
      throw new ForecastRangeError(field, `${field} must be a real calendar day, YYYY-MM-DD`);
    }
  }
}

function monthIndex(day: string): number {
  return Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
