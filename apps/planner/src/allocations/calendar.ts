/**
 * Calendar arithmetic on `YYYY-MM-DD` days. Allocation dates are calendar days, not instants: they
 * are turned into day numbers (days since 1970-01-01, UTC) and never into local times, so no time
 * zone can shift a day.
 */
const MS_PER_DAY = 86_400_000;

export type DayNumber = number;

export function dayNumberOf(date: string): DayNumber {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / MS_PER_DAY
  );
}

export function dateOf(day: DayNumber): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The UTC calendar day an instant falls on. */
export function dayNumberOfInstant(instant: Date): DayNumber {
  return Math.floor(instant.getTime() / MS_PER_DAY);
}

/** Midnight UTC opening a day, in milliseconds. */
export function startOfDayMs(day: DayNumber): number {
  return day * MS_PER_DAY;
}

/** 0 = Sunday … 6 = Saturday, as main-api's working time counts (1970-01-01 was a Thursday). */
export function dayOfWeek(day: DayNumber): number {
  return (((day + 4) % 7) + 7) % 7;
}

/**
 * The same day `months` calendar months later, clamped to the month's last day: 2026-01-31 + 1
 * month is 2026-02-28, 2028-02-29 + 12 months is 2029-02-28.
 */
export function addCalendarMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const targetMonthIndex = month - 1 + months;
  const lastDayOfTarget = new Date(Date.UTC(year, targetMonthIndex + 1, 0)).getUTCDate();
  return dateOf(Date.UTC(year, targetMonthIndex, Math.min(day, lastDayOfTarget)) / MS_PER_DAY);
}

/** Both bounds included. */
export interface DayRange {
  from: DayNumber;
  to: DayNumber;
}

export function intersect(a: DayRange, b: DayRange): DayRange | undefined {
  const from = Math.max(a.from, b.from);
  const to = Math.min(a.to, b.to);
  return from <= to ? { from, to } : undefined;
}
