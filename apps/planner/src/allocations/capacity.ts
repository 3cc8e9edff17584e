import { localDayOf, zonedInstant } from '@platform/contracts';
import { dayNumberOfInstant, dayOfWeek, intersect, type DayNumber, type DayRange } from './calendar';

/** One day of a user's working week, as main-api's working time gives it. */
export interface WorkingDay {
  dayOfWeek: number;
  dailyHours: number;
  /** `HH:mm:ss`, the window in which a partial leave is counted. */
  startAt: string;
  endAt: string;
}

export interface Leave {
  /** main-api's leave id, for `explain`. */
  id?: number;
  start: Date;
  end: Date;
  allDay: boolean;
}

/** A working week in force from a day on (until the next one's first day). */
export interface Schedule {
  effectiveFrom: DayNumber;
  week: WorkingDay[];
}

/** A public or company holiday of the person's calendar on that day. */
export interface Holiday {
  date: DayNumber;
  name: string;
  /** Hours off (a half day); null: the whole working day. */
  hoursOff: number | null;
}

/** What a person's capacity is made of, for one person. */
export interface CalendarInputs {
  /** At least one; the earliest also covers the days before it. */
  schedules: Schedule[];
  holidays?: Holiday[];
  /** Leaves that count (approved ones). */
  leaves?: Leave[];
  /** IANA zone partial leaves are read in (default UTC); all-day leaves are dates. */
  timeZone?: string;
}

/** One day of a person's capacity, in hours, and what made it. */
export interface CapacityDay {
  /** The schedule in force's hours for the day's weekday. */
  working: number;
  /** Of `working`, what holidays take (at most all of it). */
  holidays: number;
  /** Of what holidays leave, what leaves take. */
  timeOff: number;
  /** working − holidays − timeOff. */
  capacity: number;
  /** The first day of the schedule in force. */
  scheduleFrom: DayNumber | null;
  holidayNames: string[];
  /** The leaves touching the day's working hours, and the hours each takes. */
  leaves: { id: number | undefined; hours: number }[];
}

const MS_PER_HOUR = 3_600_000;

/**
 * A person's hours day by day: the one calculator behind the interface's capacity and
 * `availabilityLeft`, the v2 ledger's plans and checks, and the availability read.
 *
 * - working(d) = daily_hours of d's weekday in the schedule in force on d (the latest whose first day
 *   is on or before d; before the first one, the first one); 0 without an entry for the weekday;
 * - holidays(d) = the holidays of d, each its hours off or the whole day, at most working(d);
 * - an all-day leave touching the date d takes all that is left; a partial leave takes the part of
 *   it inside d's working window [start_at, end_at], read in the person's time zone (daylight saving
 *   included), at most what is left;
 * - capacity(range) = Σ over the days d of the range (both ends included) of
 *   working(d) − holidays(d) − time off(d).
 *
 * With one schedule, no holiday and UTC, these are the formulas the interface documents
 * (getAllocations, docs/spec/decisions.md §6).
 */
export class UserCalendar {
  private readonly schedules: { effectiveFrom: DayNumber; hoursByWeekday: Map<number, WorkingDay> }[];
  private readonly holidaysByDay = new Map<DayNumber, Holiday[]>();
  private readonly allDayLeaves = new Map<DayNumber, Leave[]>();
  private readonly partialLeaves = new Map<DayNumber, Leave[]>();
  private readonly timeZone: string;
  private readonly days = new Map<DayNumber, CapacityDay>();

  constructor(inputs: CalendarInputs | WorkingDay[], leaves: Leave[] = []) {
    const given: CalendarInputs = Array.isArray(inputs)
      ? { schedules: [{ effectiveFrom: Number.NEGATIVE_INFINITY, week: inputs }], leaves }
      : inputs;
    this.timeZone = given.timeZone ?? 'UTC';
    this.schedules = [...given.schedules]
      .sort((a, b) => a.effectiveFrom - b.effectiveFrom)
      .map((schedule) => ({
        effectiveFrom: schedule.effectiveFrom,
        hoursByWeekday: new Map(
          schedule.week.filter((day) => day.dailyHours > 0).map((day) => [day.dayOfWeek, day]),
        ),
      }));
    for (const holiday of given.holidays ?? []) {
      pushTo(this.holidaysByDay, holiday.date, holiday);
    }
    for (const leave of given.leaves ?? []) {
      this.addLeave(leave);
    }
  }

  get hasWorkingDays(): boolean {
    return this.schedules.some((schedule) => schedule.hoursByWeekday.size > 0);
  }

  /** Hours of the schedule in force on that day, holidays and leaves ignored. */
  scheduledHours(day: DayNumber): number {
    return this.windowOf(day)?.dailyHours ?? 0;
  }

  /** Days of the range with scheduled hours (holidays and leaves ignored). */
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
      hours += this.day(day).capacity;
    }
    return hours;
  }

  /** The day's hours and what made them. */
  day(day: DayNumber): CapacityDay {
    let answer = this.days.get(day);
    if (!answer) {
      answer = this.compute(day);
      this.days.set(day, answer);
    }
    return answer;
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

  private compute(day: DayNumber): CapacityDay {
    const schedule = this.scheduleOn(day);
    const window = schedule?.hoursByWeekday.get(dayOfWeek(day));
    const working = window?.dailyHours ?? 0;
    const holidays = this.holidaysByDay.get(day) ?? [];
    const holidayHours = Math.min(
      working,
      holidays.reduce((sum, holiday) => sum + (holiday.hoursOff ?? working), 0),
    );
    let left = working - holidayHours;
    const leaves: CapacityDay['leaves'] = [];
    for (const leave of this.allDayLeaves.get(day) ?? []) {
      leaves.push({ id: leave.id, hours: left });
      left = 0;
    }
    const partial = this.partialLeaves.get(day);
    // The window is placed in the person's zone only on a day a partial leave touches: Intl's zone
    // arithmetic is the dearest step of a day, and most days have none.
    if (window && partial) {
      const windowStart = zonedInstant(this.timeZone, day, window.startAt);
      const windowEnd = zonedInstant(this.timeZone, day, window.endAt);
      for (const leave of partial) {
        const overlapMs =
          Math.min(windowEnd, leave.end.getTime()) - Math.max(windowStart, leave.start.getTime());
        if (overlapMs > 0) {
          const hours = Math.min(left, overlapMs / MS_PER_HOUR);
          leaves.push({ id: leave.id, hours });
          left -= hours;
        }
      }
    }
    return {
      working,
      holidays: holidayHours,
      timeOff: working - holidayHours - left,
      capacity: left,
      scheduleFrom: schedule && Number.isFinite(schedule.effectiveFrom) ? schedule.effectiveFrom : null,
      holidayNames: holidays.map((holiday) => holiday.name),
      leaves,
    };
  }

  private scheduleOn(day: DayNumber) {
    let inForce = this.schedules[0];
    for (const schedule of this.schedules) {
      if (schedule.effectiveFrom > day) {
        break;
      }
      inForce = schedule;
    }
    return inForce;
  }

  private windowOf(day: DayNumber): WorkingDay | undefined {
    return this.scheduleOn(day)?.hoursByWeekday.get(dayOfWeek(day));
  }

  private addLeave(leave: Leave): void {
    const end = leave.end.getTime() - 1;
    if (leave.allDay) {
      // All-day leaves are dates: the UTC days they were written for, whatever the time zone. An end
      // at exactly midnight closes the previous day (2026-12-21T00:00Z to 2026-12-22T00:00Z is one).
      for (let day = dayNumberOfInstant(leave.start); day <= dayNumberOfInstant(new Date(end)); day += 1) {
        pushTo(this.allDayLeaves, day, leave);
      }
      return;
    }
    // A partial leave is instants: the person's local days it touches, whose working windows it may
    // overlap.
    const first = localDayOf(this.timeZone, leave.start.getTime());
    const last = localDayOf(this.timeZone, end);
    for (let day = first; day <= last; day += 1) {
      pushTo(this.partialLeaves, day, leave);
    }
  }
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) {
    list.push(value);
  } else {
    map.set(key, [value]);
  }
}

/** Hours as the API answers them: two decimals, no floating-point tails. */
export function roundHours(hours: number): number {
  return Math.round(hours * 100) / 100;
}
