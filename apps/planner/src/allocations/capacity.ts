import {
  dayNumberOfInstant,
  dayOfWeek,
  intersect,
  startOfDayMs,
  type DayNumber,
  type DayRange,
} from './calendar';

/** One day of a user's working week, as main-api's working time gives it. */
export interface WorkingDay {
  dayOfWeek: number;
  dailyHours: number;
  /** `HH:mm:ss`, the window in which a partial leave is counted. */
  startAt: string;
  endAt: string;
}

export interface Leave {
  start: Date;
  end: Date;
  allDay: boolean;
}

const MS_PER_HOUR = 3_600_000;

/**
 * A user's hours day by day: the working week minus leaves. The formulas the API documents
 * (getAllocations, docs/spec/decisions.md §6):
 *
 * - hours(d) = daily_hours of d's day of week (0 when the week has no entry or 0 hours for it);
 * - an all-day leave touching d removes all of hours(d);
 * - a partial leave removes the part of it that falls inside d's working window
 *   [start_at, end_at] (UTC), at most hours(d);
 * - capacity(range) = Σ over the days d of the range (both ends included) of hours(d) − leave(d).
 */
export class UserCalendar {
  private readonly hoursByWeekday = new Map<number, WorkingDay>();
  private readonly allDayLeaves = new Set<DayNumber>();
  private readonly partialLeaveHours = new Map<DayNumber, number>();

  constructor(week: WorkingDay[], leaves: Leave[] = []) {
    for (const day of week) {
      if (day.dailyHours > 0) {
        this.hoursByWeekday.set(day.dayOfWeek, day);
      }
    }
    for (const leave of leaves) {
      this.addLeave(leave);
    }
  }

  get hasWorkingDays(): boolean {
    return this.hoursByWeekday.size > 0;
  }

  /** Hours of the working week on that day, leaves ignored. */
  scheduledHours(day: DayNumber): number {
    return this.hoursByWeekday.get(dayOfWeek(day))?.dailyHours ?? 0;
  }

  /** Days of the range with scheduled hours (leaves ignored). */
  workingDays(range: DayRange): number {
    let count = 0;
    for (let day = range.from; day <= range.to; day += 1) {
      if (this.scheduledHours(day) > 0) {
        count += 1;
      }
    }
    return count;
  }

  capacity(range: DayRange): number {
    let hours = 0;
    for (let day = range.from; day <= range.to; day += 1) {
      const scheduled = this.scheduledHours(day);
      if (scheduled > 0 && !this.allDayLeaves.has(day)) {
        hours += scheduled - Math.min(scheduled, this.partialLeaveHours.get(day) ?? 0);
      }
    }
    return hours;
  }

  /**
   * The part of another allocation's hours that falls inside `range`, pro rata to its working
   * days: hours × (its working days inside the range) ÷ (all its working days). An allocation
   * whose whole range has no working day (the week changed since it was saved) is prorated by
   * calendar days instead.
   */
  proratedHours(
    allocation: DayRange & { hours: number },
    range: DayRange,
    allWorkingDays = this.workingDays(allocation),
  ): number {
    const overlap = intersect(allocation, range);
    if (!overlap) {
      return 0;
    }
    if (allWorkingDays === 0) {
      return (allocation.hours * (overlap.to - overlap.from + 1)) / (allocation.to - allocation.from + 1);
    }
    return (allocation.hours * this.workingDays(overlap)) / allWorkingDays;
  }

  private addLeave(leave: Leave): void {
    // An end at exactly midnight closes the previous day: 2026-12-21T00:00Z–2026-12-22T00:00Z is one day.
    const firstDay = dayNumberOfInstant(leave.start);
    const lastDay = dayNumberOfInstant(new Date(leave.end.getTime() - 1));
    for (let day = firstDay; day <= lastDay; day += 1) {
      if (leave.allDay) {
        this.allDayLeaves.add(day);
        continue;
      }
      const window = this.hoursByWeekday.get(dayOfWeek(day));
      if (!window) {
        continue;
      }
      const windowStart = startOfDayMs(day) + msOfTime(window.startAt);
      const windowEnd = startOfDayMs(day) + msOfTime(window.endAt);
      const overlapMs =
        Math.min(windowEnd, leave.end.getTime()) - Math.max(windowStart, leave.start.getTime());
      if (overlapMs > 0) {
        this.partialLeaveHours.set(day, (this.partialLeaveHours.get(day) ?? 0) + overlapMs / MS_PER_HOUR);
      }
    }
  }
}

function msOfTime(time: string): number {
  const [hours, minutes, seconds] = time.split(':').map(Number) as [number, number, number];
  return ((hours * 60 + minutes) * 60 + seconds) * 1000;
}

/** Hours as the API answers them: two decimals, no floating-point tails. */
export function roundHours(hours: number): number {
  return Math.round(hours * 100) / 100;
}
