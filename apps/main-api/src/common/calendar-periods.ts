/**
 * Calendar periods of `YYYY-MM-DD` days (UTC, no time of day), as the reports group them: a day, an
 * ISO week (Monday to Sunday), a month. Shared by the forecast (which widens a range to whole
 * periods) and the time report (which cuts its periods to its window).
 */
export type CalendarGranularity = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (ISO parsing reads years below 100 as they are, unlike Date.UTC). */
export function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function dayOf(dayCount: number): string {
  return new Date(dayCount * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return dayOf(dayNumber(day) + days);
}

/** The first day of the period holding `day`: itself, its ISO week's Monday, or its month's 1st. */
export function periodStartOf(day: string, granularity: CalendarGranularity): string {
  switch (granularity) {
    case 'day':
      return day;
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

/** The last day of the period holding `day`: itself, its ISO week's Sunday, or its month's last. */
export function periodEndOf(day: string, granularity: CalendarGranularity): string {
  const start = periodStartOf(day, granularity);
  switch (granularity) {
    case 'day':
      return day;
    case 'week':
      return addDays(start, 6);
    case 'month': {
      const [year, month] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
      const next = month === 12 ? `${pad(year + 1, 4)}-01-01` : `${pad(year, 4)}-${pad(month + 1, 2)}-01`;
      return addDays(next, -1);
    }
  }
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
