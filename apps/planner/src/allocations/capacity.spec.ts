import { isCalendarDate, isTimeZone, zonedInstant } from '@platform/contracts';
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

/**
 * The one calculator against a table of cases (issue 38): each row a person's schedules, holidays,
 * leaves and time zone, and the day by day figures a person would work out by hand.
 */
describe('UserCalendar: one calculator for every capacity', () => {
  const week = (hours: number, days = [1, 2, 3, 4, 5], startAt = '09:00:00', endAt = '17:00:00') =>
    days.map((weekday) => ({ dayOfWeek: weekday, dailyHours: hours, startAt, endAt }));
  const from = (date: string, hours: number, days?: number[], endAt?: string) => ({
    effectiveFrom: dayNumberOf(date),
    week: week(hours, days, '09:00:00', endAt),
  });
  const partial = (id: number, start: string, end: string) => ({
    id,
    start: new Date(start),
    end: new Date(end),
    allDay: false,
  });
  const allDay = (id: number, first: string, last: string) => ({
    id,
    start: new Date(`${first}T00:00:00Z`),
    end: new Date(`${last}T23:59:59Z`),
    allDay: true,
  });
  /** [working, holidays, time off, capacity] of each day from `first` to `last`. */
  const figures = (calendar: UserCalendar, first: string, last: string) => {
    const rows: [string, number, number, number, number][] = [];
    for (let day = dayNumberOf(first); day <= dayNumberOf(last); day += 1) {
      const { working, holidays, timeOff, capacity } = calendar.day(day);
      rows.push([dateOf(day), working, holidays, roundHours(timeOff), roundHours(capacity)]);
    }
    return rows;
  };

  it('part-time from a date: the week in force on each day, the first one before it', () => {
    const calendar = new UserCalendar({
      schedules: [from('2027-01-01', 8), from('2027-02-01', 6, [1, 2, 3], '15:00:00')],
    });

    expect(figures(calendar, '2027-01-28', '2027-02-04')).toEqual([
      ['2027-01-28', 8, 0, 0, 8],
      ['2027-01-29', 8, 0, 0, 8],
      ['2027-01-30', 0, 0, 0, 0],
      ['2027-01-31', 0, 0, 0, 0],
      ['2027-02-01', 6, 0, 0, 6],
      ['2027-02-02', 6, 0, 0, 6],
      ['2027-02-03', 6, 0, 0, 6],
      ['2027-02-04', 0, 0, 0, 0],
    ]);
    // Before the first schedule, the first one.
    expect(calendar.day(dayNumberOf('2026-12-01')).working).toBe(8);
    expect(calendar.day(dayNumberOf('2027-02-01')).scheduleFrom).toBe(dayNumberOf('2027-02-01'));
  });

  it('holidays: a whole working day, a half day, one on a weekend, and two on one day', () => {
    const calendar = new UserCalendar({
      schedules: [from('2026-01-01', 8)],
      holidays: [
        { date: dayNumberOf('2026-12-24'), name: 'Christmas Eve (afternoon)', hoursOff: 4 },
        { date: dayNumberOf('2026-12-25'), name: 'Christmas Day', hoursOff: null },
        { date: dayNumberOf('2026-12-26'), name: "St Stephen's Day", hoursOff: null },
        { date: dayNumberOf('2026-12-31'), name: "New Year's Eve", hoursOff: 5 },
        { date: dayNumberOf('2026-12-31'), name: 'Company party', hoursOff: 5 },
      ],
    });

    expect(figures(calendar, '2026-12-24', '2026-12-26')).toEqual([
      ['2026-12-24', 8, 4, 0, 4],
      ['2026-12-25', 8, 8, 0, 0],
      ['2026-12-26', 0, 0, 0, 0], // a Saturday: nothing to take
    ]);
    // Two holidays never take more than the day.
    expect(figures(calendar, '2026-12-31', '2026-12-31')).toEqual([['2026-12-31', 8, 8, 0, 0]]);
    expect(calendar.day(dayNumberOf('2026-12-31')).holidayNames).toEqual(["New Year's Eve", 'Company party']);
    expect(calendar.capacity(range('2026-12-21', '2026-12-27'))).toBe(8 * 3 + 4);
  });

  it('a leave across a schedule change takes each day as its own schedule has it', () => {
    const calendar = new UserCalendar({
      schedules: [from('2027-01-01', 8), from('2027-02-01', 6, [1, 2, 3], '15:00:00')],
      leaves: [allDay(7, '2027-01-28', '2027-02-03')],
    });

    expect(
      figures(calendar, '2027-01-28', '2027-02-04').map(([date, , , timeOff]) => [date, timeOff]),
    ).toEqual([
      ['2027-01-28', 8],
      ['2027-01-29', 8],
      ['2027-01-30', 0],
      ['2027-01-31', 0],
      ['2027-02-01', 6],
      ['2027-02-02', 6],
      ['2027-02-03', 6],
      ['2027-02-04', 0],
    ]);
    expect(calendar.capacity(range('2027-01-25', '2027-02-07'))).toBe(8 * 3);
    expect(calendar.day(dayNumberOf('2027-02-01')).leaves).toEqual([{ id: 7, hours: 6 }]);
  });

  it('a holiday inside a leave is a holiday, and the leave takes what is left', () => {
    const calendar = new UserCalendar({
      schedules: [from('2026-01-01', 8)],
      holidays: [{ date: dayNumberOf('2026-12-24'), name: 'Christmas Eve', hoursOff: 4 }],
      leaves: [allDay(1, '2026-12-24', '2026-12-24')],
    });

    expect(figures(calendar, '2026-12-24', '2026-12-24')).toEqual([['2026-12-24', 8, 4, 4, 0]]);
  });

  it.each([
    // East of UTC: 09:00-12:00 in Tokyo is 00:00-03:00 UTC, inside Monday's working hours there.
    ['Asia/Tokyo', partial(1, '2027-03-01T00:00:00Z', '2027-03-01T03:00:00Z'), '2027-03-01', 3],
    // The same instants read in UTC miss the 09:00-17:00 window.
    ['UTC', partial(1, '2027-03-01T00:00:00Z', '2027-03-01T03:00:00Z'), '2027-03-01', 0],
    // West of UTC: 15:00-21:00 in New York (UTC-5) is Tuesday 20:00 to Wednesday 02:00 UTC; two hours
    // inside Tuesday's window there, none on Wednesday.
    ['America/New_York', partial(1, '2027-03-02T20:00:00Z', '2027-03-03T02:00:00Z'), '2027-03-02', 2],
    ['America/New_York', partial(1, '2027-03-02T20:00:00Z', '2027-03-03T02:00:00Z'), '2027-03-03', 0],
    // A daylight saving week: Paris moves to UTC+2 on Sunday 28 March 2027. 09:00-11:00 local is
    // 08:00-10:00 UTC the Monday before, 07:00-09:00 UTC the Monday after: two hours each.
    ['Europe/Paris', partial(1, '2027-03-22T08:00:00Z', '2027-03-22T10:00:00Z'), '2027-03-22', 2],
    ['Europe/Paris', partial(1, '2027-03-29T07:00:00Z', '2027-03-29T09:00:00Z'), '2027-03-29', 2],
    // ... and back to UTC+1 on Sunday 31 October 2027.
    ['Europe/Paris', partial(1, '2027-11-01T08:00:00Z', '2027-11-01T10:00:00Z'), '2027-11-01', 2],
    // Year end in Auckland (UTC+13 in summer): 09:00-17:00 on 31 December is 20:00-04:00 UTC across
    // the two UTC days; a leave of that whole local day takes all eight hours.
    ['Pacific/Auckland', partial(1, '2027-12-30T20:00:00Z', '2027-12-31T04:00:00Z'), '2027-12-31', 8],
  ] as const)('partial leaves are read in the person’s time zone (%s, %s)', (zone, leave, date, timeOff) => {
    const calendar = new UserCalendar({
      schedules: [from('2027-01-01', 8, [1, 2, 3, 4, 5])],
      leaves: [leave],
      timeZone: zone,
    });

    expect(roundHours(calendar.day(dayNumberOf(date)).timeOff)).toBe(timeOff);
  });

  it('all-day leaves are dates, whatever the time zone', () => {
    const calendar = new UserCalendar({
      schedules: [from('2027-01-01', 8)],
      leaves: [allDay(3, '2027-12-31', '2027-12-31')],
      timeZone: 'Pacific/Auckland',
    });

    expect(figures(calendar, '2027-12-30', '2028-01-03')).toEqual([
      ['2027-12-30', 8, 0, 0, 8],
      ['2027-12-31', 8, 0, 8, 0],
      ['2028-01-01', 0, 0, 0, 0],
      ['2028-01-02', 0, 0, 0, 0],
      ['2028-01-03', 8, 0, 0, 8],
    ]);
  });

  it('is the interface’s calculator when given one week, no holiday and UTC', () => {
    const leaves = [
      { start: new Date('2026-01-05T14:00:00Z'), end: new Date('2026-01-05T20:00:00Z'), allDay: false },
      { start: new Date('2026-01-07T00:00:00Z'), end: new Date('2026-01-08T00:00:00Z'), allDay: true },
    ];
    const asInterface = new UserCalendar(fullTime, leaves);
    const asInputs = new UserCalendar({ schedules: [{ effectiveFrom: 0, week: fullTime }], leaves });

    expect(asInputs.capacity(range('2026-01-05', '2026-01-11'))).toBe(
      asInterface.capacity(range('2026-01-05', '2026-01-11')),
    );
    expect(asInterface.capacity(range('2026-01-05', '2026-01-11'))).toBe(5 + 8 + 0 + 8 + 8);
  });
});

describe('time zones', () => {
  it('finds the instant of a wall time, across daylight saving changes', () => {
    const at = (zone: string, date: string, time: string) =>
      new Date(zonedInstant(zone, dayNumberOf(date), time)).toISOString();

    expect(at('Europe/Paris', '2027-03-27', '09:00:00')).toBe('2027-03-27T08:00:00.000Z');
    expect(at('Europe/Paris', '2027-03-28', '09:00:00')).toBe('2027-03-28T07:00:00.000Z');
    // Skipped: 02:30 does not exist that night; read with the offset before, it is 03:30 CEST.
    expect(at('Europe/Paris', '2027-03-28', '02:30:00')).toBe('2027-03-28T01:30:00.000Z');
    // Repeated: 02:30 happens twice on 31 October; the first is CEST.
    expect(at('Europe/Paris', '2027-10-31', '02:30:00')).toBe('2027-10-31T00:30:00.000Z');
    expect(at('America/Los_Angeles', '2027-07-01', '09:00:00')).toBe('2027-07-01T16:00:00.000Z');
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
