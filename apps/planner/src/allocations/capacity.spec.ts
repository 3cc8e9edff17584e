import { isCalendarDate } from '@platform/contracts';
import { addCalendarMonths, dateOf, dayNumberOf, dayOfWeek } from './calendar';
import { UserCalendar, roundHours, type WorkingDay } from './capacity';

const day = (dayOfWeekNumber: number, dailyHours: number): WorkingDay => ({
  dayOfWeek: dayOfWeekNumber,
  dailyHours,
  startAt: '09:00:00',
  endAt: '17:00:00',
});
const fullTime = [1, 2, 3, 4, 5].map((weekday) => day(weekday, 8));
const range = (from: string, to: string) => ({ from: dayNumberOf(from), to: dayNumberOf(to) });

describe('calendar days', () => {
  it('numbers days without time zones and knows their weekday', () => {
    expect(dateOf(dayNumberOf('2026-01-05'))).toBe('2026-01-05');
    expect(dayOfWeek(dayNumberOf('2026-01-05'))).toBe(1); // a Monday
    expect(dayOfWeek(dayNumberOf('2026-01-04'))).toBe(0); // a Sunday
    expect(dayOfWeek(dayNumberOf('1969-12-31'))).toBe(3); // before the epoch too
  });

  it('tells real dates from impossible ones', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
  });

  it('adds calendar months, clamping to the last day of the month', () => {
    expect(addCalendarMonths('2026-01-15', 12)).toBe('2027-01-15');
    expect(addCalendarMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addCalendarMonths('2028-02-29', 12)).toBe('2029-02-28');
    expect(addCalendarMonths('2026-12-31', 12)).toBe('2027-12-31');
  });
});

describe('UserCalendar', () => {
  it('counts the working hours of a range starting mid-week, both ends included', () => {
    // Wednesday 7 to Tuesday 13 January 2026: Wed, Thu, Fri, Mon, Tue.
    expect(new UserCalendar(fullTime).capacity(range('2026-01-07', '2026-01-13'))).toBe(40);
  });

  it('counts only the days and hours of a part-time week', () => {
    const partTime = [day(1, 4), day(2, 4), day(3, 4), day(4, 0)];

    const calendar = new UserCalendar(partTime);

    expect(calendar.capacity(range('2026-01-05', '2026-01-11'))).toBe(12);
    expect(calendar.workingDays(range('2026-01-05', '2026-01-11'))).toBe(3);
    expect(calendar.hasWorkingDays).toBe(true);
  });

  it('has no working days when every day of the week has 0 hours', () => {
    expect(new UserCalendar([day(1, 0)]).hasWorkingDays).toBe(false);
    expect(new UserCalendar([]).hasWorkingDays).toBe(false);
  });

  it('removes the whole day for an all-day leave, ending at midnight or just before it', () => {
    const calendar = new UserCalendar(fullTime, [
      { start: new Date('2026-01-06T00:00:00Z'), end: new Date('2026-01-07T00:00:00Z'), allDay: true },
      { start: new Date('2026-01-08T00:00:00Z'), end: new Date('2026-01-08T23:59:59Z'), allDay: true },
    ]);

    expect(calendar.capacity(range('2026-01-05', '2026-01-09'))).toBe(24);
  });

  it('removes the part of a partial leave inside the working window, at most the day', () => {
    const calendar = new UserCalendar(fullTime, [
      // 3 hours inside 09:00-17:00 on Monday
      { start: new Date('2026-01-05T14:00:00Z'), end: new Date('2026-01-05T20:00:00Z'), allDay: false },
      // Tuesday 12:00 to Wednesday 10:00: 5 hours on Tuesday, 1 on Wednesday
      { start: new Date('2026-01-06T12:00:00Z'), end: new Date('2026-01-07T10:00:00Z'), allDay: false },
      // two leaves covering the whole of Thursday and more: never below zero
      { start: new Date('2026-01-08T08:00:00Z'), end: new Date('2026-01-08T18:00:00Z'), allDay: false },
      { start: new Date('2026-01-08T09:00:00Z'), end: new Date('2026-01-08T12:00:00Z'), allDay: false },
    ]);

    expect(calendar.capacity(range('2026-01-05', '2026-01-05'))).toBe(5);
    expect(calendar.capacity(range('2026-01-06', '2026-01-07'))).toBe(3 + 7);
    expect(calendar.capacity(range('2026-01-08', '2026-01-08'))).toBe(0);
  });

  it('ignores a leave outside the range and on a day off', () => {
    const calendar = new UserCalendar(fullTime, [
      { start: new Date('2026-01-10T10:00:00Z'), end: new Date('2026-01-10T12:00:00Z'), allDay: false },
      { start: new Date('2026-02-02T00:00:00Z'), end: new Date('2026-02-03T00:00:00Z'), allDay: true },
    ]);

    expect(calendar.capacity(range('2026-01-05', '2026-01-11'))).toBe(40);
  });

  it('prorates another allocation by the share of its working days inside the range', () => {
    const calendar = new UserCalendar(fullTime);
    // 2026-01-05..2026-01-16 has 10 working days; 3 of them (Wed 14 - Fri 16) are inside the range.
    const other = { ...range('2026-01-05', '2026-01-16'), hours: 40 };

    expect(calendar.proratedHours(other, range('2026-01-14', '2026-01-20'))).toBe(12);
    expect(calendar.proratedHours(other, range('2026-01-17', '2026-01-18'))).toBe(0);
    expect(calendar.proratedHours(other, range('2026-02-01', '2026-02-10'))).toBe(0);
  });

  it('prorates by calendar days when the other allocation has no working day left', () => {
    const calendar = new UserCalendar([day(1, 8)]);
    const weekend = { ...range('2026-01-10', '2026-01-11'), hours: 10 };

    expect(calendar.proratedHours(weekend, range('2026-01-11', '2026-01-12'))).toBe(5);
  });

  it.each(['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC'])(
    'counts the same days whatever the process time zone (%s)',
    (zone) => {
      const original = process.env.TZ;
      process.env.TZ = zone;
      try {
        const calendar = new UserCalendar(fullTime, [
          { start: new Date('2026-01-06T00:00:00Z'), end: new Date('2026-01-06T23:59:59Z'), allDay: true },
        ]);

        expect(calendar.capacity(range('2026-01-05', '2026-01-09'))).toBe(32);
        expect(dateOf(dayNumberOf('2026-01-05'))).toBe('2026-01-05');
      } finally {
        if (original === undefined) {
          delete process.env.TZ;
        } else {
          process.env.TZ = original;
        }
      }
    },
  );

  it('rounds hours to two decimals', () => {
    expect(roundHours(40 / 3)).toBe(13.33);
    expect(roundHours(0.1 + 0.2)).toBe(0.3);
  });
});
