import { isCalendarDate } from '@platform/contracts';
import { addDays, dayNumber, periodEndOf, periodStartOf } from '../common/calendar-periods';
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

const LAST_DAY = '9999-12-31';

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
