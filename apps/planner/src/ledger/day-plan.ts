import type { UserCalendar } from '../allocations/capacity';
import { dateOf, dayNumberOf, type DayNumber } from '../allocations/calendar';

/** How an allocation says how much it books (one of them; `days` may pin single days in any). */
export type AllocationUnits =
  | { mode: 'hours_per_day'; hoursPerDay: number }
  | { mode: 'total_hours'; totalHours: number }
  | { mode: 'percent_of_capacity'; percent: number };

/** One day of the plan, hours with two decimals. */
export interface PlannedDay {
  date: string;
  hours: number;
  /** Set by the caller (`days`), not computed: it stays when the rest is recomputed. */
  pinned: boolean;
}

export class DayPlanError extends Error {}

/**
 * An allocation's hours day by day, from its units and the person's capacity (`calendar`: the
 * working week minus time off), both ends included:
 *
 * - `hours_per_day`: that many hours on each day with capacity, none on the others;
 * - `percent_of_capacity`: that percent of each day's capacity, to the cent of an hour;
 * - `total_hours`: the total minus the pinned days, spread over the other days in proportion to
 *   each day's capacity; the hours are counted in hundredths, each day gets the floor of its share,
 *   and the hundredths left go one each to the days with the largest remainders (the earlier day
 *   first on a tie), so the days always sum exactly to the total;
 * - `pinned` days (`days: [{date, hours}]`) keep the hours given, in any mode.
 *
 * Every day of the range is answered, with 0 where nothing is booked.
 */
export function planDays(
  range: { from: string; to: string },
  units: AllocationUnits,
  calendar: UserCalendar,
  pinned: ReadonlyMap<string, number> = new Map(),
): PlannedDay[] {
  const first = dayNumberOf(range.from);
  const last = dayNumberOf(range.to);
  const days: { day: DayNumber; date: string; capacity: number }[] = [];
  for (let day = first; day <= last; day += 1) {
    days.push({ day, date: dateOf(day), capacity: calendar.capacity({ from: day, to: day }) });
  }
  for (const date of pinned.keys()) {
    if (date < range.from || date > range.to) {
      throw new DayPlanError(`days: ${date} is outside the allocation (${range.from} to ${range.to})`);
    }
  }
  const free = days.filter((day) => !pinned.has(day.date));
  const computed = new Map<string, number>();
  switch (units.mode) {
    case 'hours_per_day':
      for (const day of free) {
        computed.set(day.date, day.capacity > 0 ? units.hoursPerDay : 0);
      }
      break;
    case 'percent_of_capacity':
      for (const day of free) {
        computed.set(day.date, Math.round(day.capacity * units.percent) / 100);
      }
      break;
    case 'total_hours': {
      const pinnedCents = [...pinned.values()].reduce((sum, hours) => sum + Math.round(hours * 100), 0);
      const cents = Math.round(units.totalHours * 100) - pinnedCents;
      if (cents < 0) {
        throw new DayPlanError(
          `days pin ${pinnedCents / 100} hours, more than total_hours (${units.totalHours})`,
        );
      }
      const capacity = free.reduce((sum, day) => sum + day.capacity, 0);
      if (cents > 0 && capacity === 0) {
        throw new DayPlanError(
          'total_hours cannot be spread: the person has no capacity on the days not pinned by days',
        );
      }
      const shares = free.map((day, index) => {
        const exact = capacity === 0 ? 0 : (cents * day.capacity) / capacity;
        return { date: day.date, index, floor: Math.floor(exact), remainder: exact - Math.floor(exact) };
      });
      let left = cents - shares.reduce((sum, share) => sum + share.floor, 0);
      for (const share of [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
        if (left === 0) {
          break;
        }
        share.floor += 1;
        left -= 1;
      }
      for (const share of shares) {
        computed.set(share.date, share.floor / 100);
      }
      break;
    }
  }
  return days.map(({ date }) =>
    pinned.has(date)
      ? { date, hours: pinned.get(date) as number, pinned: true }
      : { date, hours: computed.get(date) ?? 0, pinned: false },
  );
}

/** The sum of the days, to the hundredth. */
export function totalOf(days: readonly { hours: number }[]): number {
  return days.reduce((sum, day) => sum + Math.round(day.hours * 100), 0) / 100;
}
