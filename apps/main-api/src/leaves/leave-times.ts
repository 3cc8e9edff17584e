import { isCalendarDate, zonedInstant } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';

const MS_PER_DAY = 86_400_000;

/**
 * What `/v1/leaves` accepts as a leave's start or end: an instant (ISO 8601 with `Z` or an offset),
 * a local date-time without offset (`YYYY-MM-DDTHH:mm[:ss]`, read in the person's time zone), or,
 * for all-day leaves, a plain date.
 */
export const LEAVE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export interface LeaveTimeContext {
  /** The person's IANA time zone, in which a local date-time is read. */
  zone: string;
  allDay: boolean;
}

/**
 * The instant a leave's `start` or `end` names. A plain date (all-day leaves only) is a UTC date, as
 * the planner reads all-day leaves: a start is its 00:00:00Z, an end its 23:59:59Z (the interface's
 * own all-day end, so the next day's leave from 00:00Z does not touch it under the overlap rule,
 * which includes both ends). A local date-time a daylight saving change skips is read with the
 * offset before the change, a repeated one is its first occurrence (`zonedInstant`).
 */
export function leaveInstant(field: 'start' | 'end', value: string, context: LeaveTimeContext): Date {
  const match = LEAVE_TIME.exec(value);
  const [, date = '', hours, minutes, seconds = '00', fraction = '', offset] = match ?? [];
  if (!match || !isCalendarDate(date)) {
    throw invalid(field, `${field} must be a real date or date-time`);
  }
  const day = Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;
  if (hours === undefined || minutes === undefined) {
    if (!context.allDay) {
      throw invalid(field, `${field} may be a plain date (YYYY-MM-DD) only with all_day: true`);
    }
    return new Date(field === 'start' ? day * MS_PER_DAY : (day + 1) * MS_PER_DAY - 1000);
  }
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) {
    throw invalid(field, `${field} must be a real time of day`);
  }
  const time = `${hours}:${minutes}:${seconds}`;
  const milliseconds = Number(fraction.padEnd(3, '0'));
  if (offset === undefined) {
    return new Date(zonedInstant(context.zone, day, time) + milliseconds);
  }
  const wall = Date.parse(`${date}T${time}Z`) + milliseconds;
  return new Date(wall - offsetMinutes(field, offset) * 60_000);
}

/** `Z` is 0, `+05:30` is 330, `-04:00` is -240; an offset past ±14:00 is refused. */
function offsetMinutes(field: string, offset: string): number {
  if (offset === 'Z') {
    return 0;
  }
  const sign = offset.startsWith('-') ? -1 : 1;
  const [hours, minutes] = offset.slice(1).split(':').map(Number) as [number, number];
  if (minutes > 59 || hours * 60 + minutes > 14 * 60) {
    throw invalid(field, `${field} has no such UTC offset (${offset})`);
  }
  return sign * (hours * 60 + minutes);
}

function invalid(field: string, message: string): RequestValidationError {
  return new RequestValidationError([{ field, validation: 'leaveTime', message }]);
}
