import { UserCalendar } from '../allocations/capacity';
import { planDays, totalOf, DayPlanError } from './day-plan';

// Monday to Friday, 8 hours; Wednesday 4.
const week = [1, 2, 3, 4, 5].map((dayOfWeek) => ({
  dayOfWeek,
  dailyHours: dayOfWeek === 3 ? 4 : 8,
  startAt: '09:00:00',
  endAt: dayOfWeek === 3 ? '13:00:00' : '17:00:00',
}));
// 2027-01-04 is a Monday.
const WEEK = { from: '2027-01-04', to: '2027-01-10' };

describe('planDays', () => {
  const calendar = new UserCalendar(week);

  it('books hours_per_day on each working day and none on the weekend', () => {
    const days = planDays(WEEK, { mode: 'hours_per_day', hoursPerDay: 6 }, calendar);
    expect(days.map((day) => day.hours)).toEqual([6, 6, 6, 6, 6, 0, 0]);
    expect(totalOf(days)).toBe(30);
  });

  it('spreads total_hours in proportion to capacity, summing exactly to the total', () => {
    // Capacity 8, 8, 4, 8, 8 = 36; 10 hours: 2.22.., 2.22.., 1.11.., 2.22.., 2.22..
    const days = planDays(WEEK, { mode: 'total_hours', totalHours: 10 }, calendar);
    expect(days.map((day) => day.hours)).toEqual([2.23, 2.22, 1.11, 2.22, 2.22, 0, 0]);
    expect(totalOf(days)).toBe(10);
  });

  it('gives the hundredths left to the largest remainders, the earlier day first', () => {
    for (const total of [0.01, 0.07, 1, 13.33, 99.99, 100]) {
      const days = planDays(WEEK, { mode: 'total_hours', totalHours: total }, calendar);
      expect([total, totalOf(days)]).toEqual([total, total]);
      expect(days.every((day) => Number.isInteger(Math.round(day.hours * 100)))).toBe(true);
    }
    expect(
      planDays(WEEK, { mode: 'total_hours', totalHours: 0.03 }, calendar).map((day) => day.hours),
    ).toEqual([0.01, 0.01, 0, 0.01, 0, 0, 0]);
  });

  it('books a percent of each day, following its capacity', () => {
    const days = planDays(WEEK, { mode: 'percent_of_capacity', percent: 50 }, calendar);
    expect(days.map((day) => day.hours)).toEqual([4, 4, 2, 4, 4, 0, 0]);
  });

  it('keeps pinned days and spreads the rest of the total over the others', () => {
    const days = planDays(
      WEEK,
      { mode: 'total_hours', totalHours: 20 },
      calendar,
      new Map([
        ['2027-01-04', 8],
        ['2027-01-09', 2],
      ]),
    );
    expect(days.map((day) => [day.hours, day.pinned])).toEqual([
      [8, true],
      [2.86, false],
      [1.43, false],
      [2.86, false],
      [2.85, false],
      [2, true],
      [0, false],
    ]);
    expect(totalOf(days)).toBe(20);
  });

  it('counts time off: a leave day has no capacity', () => {
    const withLeave = new UserCalendar(week, [
      { start: new Date('2027-01-05T00:00:00Z'), end: new Date('2027-01-06T00:00:00Z'), allDay: true },
    ]);
    expect(
      planDays(WEEK, { mode: 'hours_per_day', hoursPerDay: 8 }, withLeave).map((day) => day.hours),
    ).toEqual([8, 0, 8, 8, 8, 0, 0]);
  });

  it('refuses what cannot be planned', () => {
    expect(() =>
      planDays(WEEK, { mode: 'total_hours', totalHours: 5 }, calendar, new Map([['2027-01-04', 6]])),
    ).toThrow(DayPlanError);
    expect(() =>
      planDays(WEEK, { mode: 'hours_per_day', hoursPerDay: 5 }, calendar, new Map([['2027-02-01', 6]])),
    ).toThrow('outside the allocation');
    expect(() =>
      planDays({ from: '2027-01-09', to: '2027-01-10' }, { mode: 'total_hours', totalHours: 5 }, calendar),
    ).toThrow('no capacity');
  });
});
