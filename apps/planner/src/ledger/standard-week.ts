import { UserCalendar } from '../allocations/capacity';

/** The hours of a placeholder's working day. */
export const STANDARD_DAY_HOURS = 8;

/**
 * The week a placeholder's days are planned on (issue 39): Monday to Friday, 8 hours, no holidays,
 * no time off. A placeholder is nobody yet, so it has no calendar in main-api; this week only says
 * which days hours per day and a total fall on, never how much may be booked (placeholders have no
 * capacity limit). New each time: a calendar caches its days.
 */
export function standardWeek(): UserCalendar {
  return new UserCalendar(
    [1, 2, 3, 4, 5].map((dayOfWeek) => ({
      dayOfWeek,
      dailyHours: STANDARD_DAY_HOURS,
      startAt: '09:00:00',
      endAt: '17:00:00',
    })),
  );
}
