import type { PlannedHoursRow } from '../planner-client/planner.client';
import {
  projectForecast,
  type ApprovedHours,
  type ForecastOptions,
  type ForecastProjectFacts,
  type PositionDirectory,
} from './forecast';
import { sumForecasts } from './forecast-groups';
import { periodEndOf, periodStartOf } from '../common/calendar-periods';
import { forecastRange, periodsOf } from './forecast-periods';
import { ForecastRangeError } from './forecast.errors';

// Positions 1 (100/h) and 2 (50/h) in category 5, position 3 (no price) in category 6; person 7 is a 2.
const PROJECT: ForecastProjectFacts = {
  id: 1,
  start: '2026-10-15',
  end: '2026-12-20',
  incomeType: 'hourly_rate',
  estimateMode: 'by_position',
  estimatedTime: 40,
  budgetAmount: 1000,
  costs: 100,
  prices: new Map([
    [1, 100],
    [2, 50],
  ]),
  positionLines: [
    { position_id: 1, estimated_hours: 10 },
    { position_id: 3, estimated_hours: 5 },
  ],
  categoryLines: [{ category_id: 5, estimated_hours: 12 }],
};

const POSITIONS: PositionDirectory = {
  positionOfUser: new Map([[7, 2]]),
  categoryOfPosition: new Map([
    [1, 5],
    [2, 5],
    [3, 6],
  ]),
};

const APPROVED: ApprovedHours[] = [
  { date: '2026-10-20', position_id: 2, hours: 1 },
  { date: '2026-11-02', position_id: 1, hours: 4 },
  { date: '2026-11-10', position_id: null, hours: 2 },
];

const planned = (row: Partial<PlannedHoursRow>): PlannedHoursRow => ({
  project_id: 1,
  user_id: null,
  placeholder_id: null,
  position_id: null,
  category_id: null,
  period_start: '2026-11-30',
  confirmed_hours: 0,
  tentative_hours: 0,
  ...row,
});

const PLANNED: PlannedHoursRow[] = [
  planned({ user_id: 7, period_start: '2026-11-30', confirmed_hours: 3, tentative_hours: 1 }),
  planned({ placeholder_id: 'a', position_id: 1, period_start: '2026-12-01', confirmed_hours: 2 }),
  planned({ placeholder_id: 'b', category_id: 9, period_start: '2026-12-02', tentative_hours: 4 }),
];

const TODAY = '2026-11-28';

function forecast(options: Partial<ForecastOptions> = {}, project: Partial<ForecastProjectFacts> = {}) {
  return projectForecast({ ...PROJECT, ...project }, APPROVED, PLANNED, POSITIONS, {
    today: TODAY,
    granularity: 'month',
    includeTentative: false,
    ...options,
  });
}

const noHours = {
  actual_hours: 0,
  actual_amount: 0,
  scheduled_hours: 0,
  scheduled_amount: 0,
  tentative_hours: 0,
  tentative_amount: 0,
};

describe('forecast periods', () => {
  it.each([
    ['2026-11-28', '2026-11-23', '2026-11-29'],
    ['2026-11-23', '2026-11-23', '2026-11-29'],
    ['2026-11-29', '2026-11-23', '2026-11-29'],
    ['2026-01-01', '2025-12-29', '2026-01-04'],
    ['1970-01-01', '1969-12-29', '1970-01-04'],
  ])('puts %s in the ISO week %s..%s', (day, start, end) => {
    expect([periodStartOf(day, 'week'), periodEndOf(day, 'week')]).toEqual([start, end]);
  });

  it.each([
    ['2026-11-28', '2026-11-01', '2026-11-30'],
    ['2028-02-10', '2028-02-01', '2028-02-29'],
    ['2027-02-10', '2027-02-01', '2027-02-28'],
    ['2026-12-31', '2026-12-01', '2026-12-31'],
  ])('puts %s in the month %s..%s', (day, start, end) => {
    expect([periodStartOf(day, 'month'), periodEndOf(day, 'month')]).toEqual([start, end]);
  });

  it('widens a range to whole periods and lists every one of them', () => {
    const range = forecastRange({ from: '2026-12-30', to: '2027-01-02' }, { from: 'x', to: 'x' }, 'week');

    expect(range).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(periodsOf(range, 'week')).toEqual([{ start: '2026-12-28', end: '2027-01-03' }]);
    expect(periodsOf({ from: '2026-11-01', to: '2027-01-31' }, 'month')).toEqual([
      { start: '2026-11-01', end: '2026-11-30' },
      { start: '2026-12-01', end: '2026-12-31' },
      { start: '2027-01-01', end: '2027-01-31' },
    ]);
  });

  it.each([
    [{ from: '2026-02-30' }, 'from'],
    [{ from: '2026-05-01', to: '2026-04-20' }, 'to'],
    [{ from: '2026-05-01' }, 'from'],
    [{}, 'from'],
    [{ from: '2000-01-01', to: '2010-12-31' }, 'to'],
  ])('refuses %p naming %s', (asked, field) => {
    const defaults = { from: '2026-06-01', to: '2026-01-01' };
    const refusal = (() => {
      try {
        forecastRange(asked, defaults, 'week');
      } catch (error) {
        return error as ForecastRangeError;
      }
    })();

    expect(refusal).toBeInstanceOf(ForecastRangeError);
    expect(refusal?.fieldErrors.map((error) => error.field)).toEqual([field]);
  });

  it('takes 520 periods and refuses 521', () => {
    expect(() =>
      forecastRange({ from: '2020-01-06', to: '2029-12-23' }, { from: '', to: '' }, 'week'),
    ).not.toThrow();
    expect(() =>
      forecastRange({ from: '2020-01-06', to: '2029-12-24' }, { from: '', to: '' }, 'week'),
    ).toThrow(ForecastRangeError);
  });
});

describe('projectForecast', () => {
  it('values actual, scheduled and tentative hours and derives ETC, EAC, variance and burn', () => {
    expect(forecast().totals).toEqual({
      actual_hours: 7,
      actual_amount: 450,
      scheduled_hours: 5,
      scheduled_amount: 350,
      tentative_hours: 5,
      tentative_amount: 50,
      etc_hours: 5,
      etc_amount: 350,
      eac_hours: 12,
      eac_amount: 800,
      estimate_hours: 15,
      budget_amount: 1000,
      variance_hours: 3,
      variance_amount: 200,
      burn_ratio: 0.45,
      projected_profitability: 700,
      budget_exhausted_on: null,
    });
  });

  it('counts tentative hours in ETC, EAC and the projections only when asked', () => {
    expect(forecast({ includeTentative: true }).totals).toMatchObject({
      tentative_hours: 5,
      etc_hours: 10,
      etc_amount: 400,
      eac_hours: 17,
      eac_amount: 850,
      variance_hours: -2,
      variance_amount: 150,
      projected_profitability: 750,
    });
  });

  it('takes the estimate of the active mode and projects a fixed income as its estimate', () => {
    expect(forecast({}, { estimateMode: 'total' }).totals.estimate_hours).toBe(40);
    expect(forecast({}, { estimateMode: 'by_category' }).totals.estimate_hours).toBe(12);
    expect(forecast({}, { incomeType: 'fee' }).totals.projected_profitability).toBe(900);
  });

  it.each([
    ['reached on a planned day', 500, false, '2026-11-30'],
    ['reached exactly, by the last planned day', 800, false, '2026-12-01'],
    ['reached by approved time alone', 400, false, '2026-11-02'],
    ['never reached', 801, false, null],
    ['reached only with tentative hours', 850, true, '2026-12-01'],
    ['without a budget', 0, false, null],
    ['with a negative budget', -5, false, null],
  ])('finds the day the budget runs out: %s', (_case, budgetAmount, includeTentative, day) => {
    expect(forecast({ includeTentative }, { budgetAmount }).totals.budget_exhausted_on).toBe(day);
  });

  it('gives no burn ratio without a budget', () => {
    expect(forecast({}, { budgetAmount: 0 }).totals.burn_ratio).toBeNull();
  });

  it('covers by default the months from the earliest of first entry, start and today to the latest of plan, end and today', () => {
    const { from, to, periods } = forecast();

    expect({ from, to }).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(periods).toEqual([
      {
        period_start: '2026-10-01',
        period_end: '2026-10-31',
        ...noHours,
        actual_hours: 1,
        actual_amount: 50,
        cumulative_hours: 1,
        cumulative_amount: 50,
      },
      {
        period_start: '2026-11-01',
        period_end: '2026-11-30',
        actual_hours: 6,
        actual_amount: 400,
        scheduled_hours: 3,
        scheduled_amount: 150,
        tentative_hours: 1,
        tentative_amount: 50,
        cumulative_hours: 10,
        cumulative_amount: 600,
      },
      {
        period_start: '2026-12-01',
        period_end: '2026-12-31',
        ...noHours,
        scheduled_hours: 2,
        scheduled_amount: 200,
        tentative_hours: 4,
        cumulative_hours: 12,
        cumulative_amount: 800,
      },
    ]);
  });

  it('lists every week of an asked range, empty ones too, cumulating what came before it', () => {
    const weeks = forecast({
      granularity: 'week',
      from: '2026-11-10',
      to: '2026-11-30',
      includeTentative: true,
    });

    expect({ from: weeks.from, to: weeks.to }).toEqual({ from: '2026-11-09', to: '2026-12-06' });
    expect(
      weeks.periods.map((period) => [
        period.period_start,
        period.actual_hours,
        period.scheduled_hours,
        period.cumulative_hours,
        period.cumulative_amount,
      ]),
    ).toEqual([
      ['2026-11-09', 2, 0, 7, 450],
      ['2026-11-16', 0, 0, 7, 450],
      ['2026-11-23', 0, 0, 7, 450],
      ['2026-11-30', 0, 5, 17, 850],
    ]);
    // The totals are all time, whatever the range.
    expect(weeks.totals.actual_hours).toBe(7);
  });

  it('has a row per position line, also without work, and per position worked, the unpositioned last', () => {
    expect(forecast().by_position).toEqual([
      {
        position_id: 1,
        estimated_hours: 10,
        estimated_amount: 1000,
        ...noHours,
        actual_hours: 4,
        actual_amount: 400,
        scheduled_hours: 2,
        scheduled_amount: 200,
        eac_hours: 6,
        eac_amount: 600,
        variance_hours: 4,
        variance_amount: 400,
      },
      {
        position_id: 2,
        estimated_hours: 0,
        estimated_amount: 0,
        actual_hours: 1,
        actual_amount: 50,
        scheduled_hours: 3,
        scheduled_amount: 150,
        tentative_hours: 1,
        tentative_amount: 50,
        eac_hours: 4,
        eac_amount: 200,
        variance_hours: -4,
        variance_amount: -200,
      },
      {
        position_id: 3,
        estimated_hours: 5,
        estimated_amount: 0,
        ...noHours,
        eac_hours: 0,
        eac_amount: 0,
        variance_hours: 5,
        variance_amount: 0,
      },
      {
        position_id: null,
        estimated_hours: 0,
        estimated_amount: 0,
        ...noHours,
        actual_hours: 2,
        tentative_hours: 4,
        eac_hours: 2,
        eac_amount: 0,
        variance_hours: -2,
        variance_amount: 0,
      },
    ]);
  });

  it("has a row per category line and per category worked, a placeholder's own category included", () => {
    expect(
      forecast().by_category.map((row) => [
        row.category_id,
        row.estimated_hours,
        row.actual_hours,
        row.scheduled_hours,
        row.tentative_hours,
        row.eac_hours,
        row.eac_amount,
        row.variance_hours,
        row.estimated_amount,
      ]),
    ).toEqual([
      [5, 12, 5, 5, 1, 10, 800, 2, null],
      [9, 0, 0, 0, 4, 0, 0, 0, null],
      [null, 0, 2, 0, 0, 2, 0, -2, null],
    ]);
  });

  it('sums exactly and rounds to cents only at the end', () => {
    const halfCents = projectForecast(
      { ...PROJECT, prices: new Map([[1, 0.05]]) },
      ['2026-11-02', '2026-11-03', '2026-11-04'].map((date) => ({ date, position_id: 1, hours: 0.1 })),
      [],
      POSITIONS,
      { today: TODAY, granularity: 'month', includeTentative: false },
    );

    // 3 × 0.005: 0.015, hence 0.02; rounding each first would have made it 0.03.
    expect(halfCents.totals.actual_hours).toBe(0.3);
    expect(halfCents.totals.actual_amount).toBe(0.02);
  });
});

describe('sumForecasts', () => {
  it('adds every additive figure, recomputes the burn and takes the earliest exhaustion', () => {
    const options = { from: '2026-10-01', to: '2026-12-31' };
    const first = forecast(options, { budgetAmount: 500 });
    const second = forecast({ ...options, includeTentative: true }, { budgetAmount: 2000 });

    const group = sumForecasts([first, second]);

    expect(group.totals).toMatchObject({
      actual_amount: 900,
      eac_hours: 29,
      eac_amount: 1650,
      budget_amount: 2500,
      variance_amount: 850,
      burn_ratio: 0.36,
      budget_exhausted_on: '2026-11-30',
    });
    expect(group.periods.map((period) => period.cumulative_amount)).toEqual([100, 1250, 1650]);
  });
});
