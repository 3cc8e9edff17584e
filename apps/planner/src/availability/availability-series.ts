import { dateOf, dayOfWeek, type DayNumber, type DayRange } from '../allocations/calendar';
import type { UserCalendar } from '../allocations/capacity';

export type Granularity = 'day' | 'week' | 'month';

/** What a person is booked for on a day, in hours, by status. */
export interface BookedHours {
  confirmed: number;
  tentative: number;
}

/**
 * A period's figures in hundredths of an hour: integers, so a week's or a month's figures are
 * exactly the sums of their days' (no floating-point drift), and the totals the sums of the series.
 */
export interface Figures {
  working: number;
  holidays: number;
  timeOff: number;
  capacity: number;
  confirmed: number;
  tentative: number;
}

export interface DayFigures extends Figures {
  day: DayNumber;
}

const cents = (hours: number): number => Math.round(hours * 100);

/** The person's figures for each day of the range, from the one calculator and what they are booked for. */
export function figuresByDay(
  calendar: UserCalendar,
  range: DayRange,
  booked: ReadonlyMap<DayNumber, BookedHours> | undefined,
): DayFigures[] {
  const days: DayFigures[] = [];
  for (let day = range.from; day <= range.to; day += 1) {
    const capacity = calendar.day(day);
    const onDay = booked?.get(day);
    // Each part is rounded on its own and capacity is what is left of them, so working = holidays
    // + time off + capacity holds in hundredths, day by day.
    const working = cents(capacity.working);
    const holidays = cents(capacity.holidays);
    const timeOff = cents(capacity.timeOff);
    days.push({
      day,
      working,
      holidays,
      timeOff,
      capacity: working - holidays - timeOff,
      confirmed: cents(onDay?.confirmed ?? 0),
      tentative: cents(onDay?.tentative ?? 0),
    });
  }
  return days;
}

/**
 * The periods of a granularity covering the range, clipped to it: days; ISO weeks (Monday to
 * Sunday); calendar months.
 */
export function periodsOf(range: DayRange, granularity: Granularity): DayRange[] {
  const periods: DayRange[] = [];
  let from = range.from;
  while (from <= range.to) {
    const end = granularity === 'day' ? from : granularity === 'week' ? sundayOf(from) : lastOfMonth(from);
    const to = Math.min(end, range.to);
    periods.push({ from, to });
    from = to + 1;
  }
  return periods;
}

/** The sum of the days' figures inside each period (days in order, periods in order). */
export function sumsByPeriod(days: readonly DayFigures[], periods: readonly DayRange[]): Figures[] {
  const sums: Figures[] = [];
  let index = 0;
  for (const period of periods) {
    const sum = zero();
    while (index < days.length && days[index].day <= period.to) {
      const day = days[index];
      if (day.day >= period.from) {
        add(sum, day);
      }
      index += 1;
    }
    sums.push(sum);
  }
  return sums;
}

export function totalOf(figures: readonly Figures[]): Figures {
  const sum = zero();
  for (const item of figures) {
    add(sum, item);
  }
  return sum;
}

/** A period's figures in hours as the API answers them, with what is left and the share booked. */
export function inHours(figures: Figures, includeTentative: boolean) {
  const booked = figures.confirmed + (includeTentative ? figures.tentative : 0);
  return {
    working: figures.working / 100,
    holidays: figures.holidays / 100,
    time_off: figures.timeOff / 100,
    capacity: figures.capacity / 100,
    confirmed: figures.confirmed / 100,
    tentative: figures.tentative / 100,
    available: (figures.capacity - booked) / 100,
    utilization: figures.capacity === 0 ? null : Math.round((booked / figures.capacity) * 10_000) / 10_000,
  };
}

function zero(): Figures {
  return { working: 0, holidays: 0, timeOff: 0, capacity: 0, confirmed: 0, tentative: 0 };
}

function add(sum: Figures, figures: Figures): void {
  sum.working += figures.working;
  sum.holidays += figures.holidays;
  sum.timeOff += figures.timeOff;
  sum.capacity += figures.capacity;
  sum.confirmed += figures.confirmed;
  sum.tentative += figures.tentative;
}

function sundayOf(day: DayNumber): DayNumber {
  return day + ((7 - dayOfWeek(day)) % 7);
}

function lastOfMonth(day: DayNumber): DayNumber {
  const date = dateOf(day);
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return Date.UTC(year, month, 0) / 86_400_000;
}

/** A day's free hours (hundredths): its capacity less what it books, never below 0. */
export function freeOf(day: Figures, includeTentative: boolean): number {
  return Math.max(0, day.capacity - day.confirmed - (includeTentative ? day.tentative : 0));
}

/**
 * The earliest window in which the person has `hours` free: from the first day with free hours to
 * the day on which the free hours since then reach `hours`; undefined when the range has fewer.
 */
export function firstFit(
  days: readonly DayFigures[],
  hours: number,
  includeTentative: boolean,
): DayRange | undefined {
  const needed = cents(hours);
  let from: DayNumber | undefined;
  let free = 0;
  for (const day of days) {
    const onDay = freeOf(day, includeTentative);
    if (onDay > 0 && from === undefined) {
      from = day.day;
    }
    free += onDay;
    if (from !== undefined && free >= needed) {
      return { from, to: day.day };
    }
  }
  return undefined;
}
