import { dayNumberOf, dateOf } from '../allocations/calendar';
import { UserCalendar } from '../allocations/capacity';
import { figuresByDay, firstFit, inHours, periodsOf, sumsByPeriod, totalOf } from './availability-series';

const range = (from: string, to: string) => ({ from: dayNumberOf(from), to: dayNumberOf(to) });
const dates = (periods: { from: number; to: number }[]) => periods.map((p) => [dateOf(p.from), dateOf(p.to)]);

// Monday to Friday, 7.33 hours: thirds of an hour that do not add up in binary floating point.
const calendar = () =>
  new UserCalendar(
    [1, 2, 3, 4, 5].map((dayOfWeek) => ({
      dayOfWeek,
      dailyHours: 7.33,
      startAt: '09:00:00',
      endAt: '17:00:00',
    })),
  );

describe('availability series', () => {
  it('cuts a window into ISO weeks and calendar months, clipped to it', () => {
    // 2027-12-29 is a Wednesday.
    expect(dates(periodsOf(range('2027-12-29', '2028-01-11'), 'week'))).toEqual([
      ['2027-12-29', '2028-01-02'],
      ['2028-01-03', '2028-01-09'],
      ['2028-01-10', '2028-01-11'],
    ]);
    expect(dates(periodsOf(range('2028-01-30', '2028-03-02'), 'month'))).toEqual([
      ['2028-01-30', '2028-01-31'],
      ['2028-02-01', '2028-02-29'],
      ['2028-03-01', '2028-03-02'],
    ]);
    expect(periodsOf(range('2028-01-01', '2028-01-03'), 'day')).toHaveLength(3);
    expect(dates(periodsOf(range('2028-01-09', '2028-01-09'), 'week'))).toEqual([
      ['2028-01-09', '2028-01-09'],
    ]);
  });

  it('sums periods exactly: weeks, months and the total are the sums of the days', () => {
    const window = range('2027-01-01', '2027-12-31');
    const booked = new Map([[dayNumberOf('2027-03-02'), { confirmed: 2.01, tentative: 0.33 }]]);
    const days = figuresByDay(calendar(), window, booked);
    const byWeek = sumsByPeriod(days, periodsOf(window, 'week'));
    const byMonth = sumsByPeriod(days, periodsOf(window, 'month'));
    const total = totalOf(days);
    expect(totalOf(byWeek)).toEqual(total);
    expect(totalOf(byMonth)).toEqual(total);
    // 261 working days of 7.33 hours, to the hundredth.
    expect(inHours(total, false)).toMatchObject({ working: 1913.13, capacity: 1913.13, confirmed: 2.01 });
    expect(inHours(total, true).available).toBe(1910.79);
  });

  it('answers the first window with enough free hours, and none when there is not', () => {
    const days = figuresByDay(
      calendar(),
      range('2027-03-01', '2027-03-07'),
      new Map([[dayNumberOf('2027-03-01'), { confirmed: 7.33, tentative: 0 }]]),
    );
    // Monday is full; 7.33 free from Tuesday: 10 hours are reached on Wednesday.
    expect(firstFit(days, 10, false)).toEqual(range('2027-03-02', '2027-03-03'));
    expect(firstFit(days, 29.32, false)).toEqual(range('2027-03-02', '2027-03-05'));
    expect(firstFit(days, 29.33, false)).toBeUndefined();
  });
});
