import type { RequestValidationError } from '@platform/runtime';
import type { PlannedHoursRow } from '../planner-client/planner.client';
import {
  assemblePage,
  decodeCursor,
  encodeCursor,
  firstKeysAfter,
  plannedGroups,
  type LoggedPeriodRow,
} from './time-report-groups';
import { assertReportRange, reportPeriods } from './time-report-periods';

const planned = (row: Partial<PlannedHoursRow>): PlannedHoursRow => ({
  project_id: 1,
  user_id: null,
  placeholder_id: null,
  position_id: null,
  category_id: null,
  period_start: '2026-03-02',
  confirmed_hours: 0,
  tentative_hours: 0,
  ...row,
});

const logged = (row: Partial<LoggedPeriodRow>): LoggedPeriodRow => ({
  user_id: null,
  project_id: null,
  first_name: null,
  last_name: null,
  project_name: null,
  period_key: null,
  logged_hours: '0',
  approved_hours: '0',
  billable_hours: '0',
  ...row,
});

const fieldOf = (work: () => unknown): string | undefined => {
  try {
    work();
  } catch (error) {
    return (error as RequestValidationError).fieldErrors[0]?.field;
  }
  return undefined;
};

describe('reportPeriods', () => {
  it('cuts the first and last ISO week at from and to, keyed by their Monday', () => {
    expect(reportPeriods('2026-03-01', '2026-03-10', 'week')).toEqual([
      { start: '2026-03-01', end: '2026-03-01', key: '2026-02-23' },
      { start: '2026-03-02', end: '2026-03-08', key: '2026-03-02' },
      { start: '2026-03-09', end: '2026-03-10', key: '2026-03-09' },
    ]);
  });

  it('gives calendar months, February of a leap year included, and each day', () => {
    expect(reportPeriods('2028-01-15', '2028-03-01', 'month')).toEqual([
      { start: '2028-01-15', end: '2028-01-31', key: '2028-01-01' },
      { start: '2028-02-01', end: '2028-02-29', key: '2028-02-01' },
      { start: '2028-03-01', end: '2028-03-01', key: '2028-03-01' },
    ]);
    expect(reportPeriods('2026-12-31', '2027-01-01', 'day').map((period) => period.key)).toEqual([
      '2026-12-31',
      '2027-01-01',
    ]);
  });

  it('crosses a year inside an ISO week', () => {
    expect(reportPeriods('2026-12-28', '2027-01-03', 'week')).toEqual([
      { start: '2026-12-28', end: '2027-01-03', key: '2026-12-28' },
    ]);
  });
});

describe('assertReportRange', () => {
  it('takes a day, and 370 days both included', () => {
    expect(() => assertReportRange('2026-03-01', '2026-03-01')).not.toThrow();
    expect(() => assertReportRange('2026-01-01', '2027-01-05')).not.toThrow();
  });

  it.each([
    ['2026-02-30', '2026-03-01', 'from'],
    ['2026-03-01', '2026-13-01', 'to'],
    ['2026-03-02', '2026-03-01', 'to'],
    ['2026-01-01', '2027-01-06', 'to'],
  ])('refuses %s..%s naming %s', (from, to, field) => {
    expect(fieldOf(() => assertReportRange(from, to))).toBe(field);
  });
});

describe('cursor', () => {
  it('resumes after the key it was made of, for its own grouping only', () => {
    const cursor = encodeCursor('user,project', [3, 7]);

    expect(decodeCursor('user,project', cursor)).toEqual([3, 7]);
    expect(fieldOf(() => decodeCursor('user', cursor))).toBe('cursor');
  });

  it.each([
    'not base64 json!',
    Buffer.from('{"group_by":"user","after":[0]}').toString('base64url'),
    Buffer.from('{"group_by":"user","after":["3"]}').toString('base64url'),
    Buffer.from('{"group_by":"user","after":[3,4]}').toString('base64url'),
    Buffer.from('null').toString('base64url'),
  ])('refuses %s naming cursor', (raw) => {
    expect(fieldOf(() => decodeCursor('user', raw))).toBe('cursor');
  });
});

describe('plannedGroups', () => {
  const rows = [
    planned({ project_id: 1, user_id: 5, confirmed_hours: 8, tentative_hours: 1 }),
    planned({ project_id: 1, user_id: 5, period_start: '2026-03-09', confirmed_hours: 2 }),
    planned({ project_id: 2, user_id: 5, confirmed_hours: 4 }),
    planned({ project_id: 1, user_id: 6, confirmed_hours: 3 }),
    planned({ project_id: 1, placeholder_id: 'p', confirmed_hours: 10, tentative_hours: 2 }),
  ];
  const summary = (groups: ReturnType<typeof plannedGroups>) =>
    [...groups.values()].map(({ key, periods }) => [key, Object.fromEntries(periods)]);

  it("sums a person's projects by user; placeholders count for no one", () => {
    expect(summary(plannedGroups(rows, 'user', undefined))).toEqual([
      [[5], { '2026-03-02': { confirmed: 12, tentative: 1 }, '2026-03-09': { confirmed: 2, tentative: 0 } }],
      [[6], { '2026-03-02': { confirmed: 3, tentative: 0 } }],
    ]);
  });

  it('counts placeholders by project alone, unless narrowed to people', () => {
    expect(summary(plannedGroups(rows, 'project', undefined))).toEqual([
      [[1], { '2026-03-02': { confirmed: 21, tentative: 3 }, '2026-03-09': { confirmed: 2, tentative: 0 } }],
      [[2], { '2026-03-02': { confirmed: 4, tentative: 0 } }],
    ]);
    expect(summary(plannedGroups(rows, 'project', new Set([6])))).toEqual([
      [[1], { '2026-03-02': { confirmed: 3, tentative: 0 } }],
    ]);
  });

  it('keys by person and project', () => {
    expect([...plannedGroups(rows, 'user,project', undefined).values()].map(({ key }) => key)).toEqual([
      [5, 1],
      [5, 2],
      [6, 1],
    ]);
  });
});

describe('firstKeysAfter', () => {
  it('orders by user, then project, and starts after the cursor', () => {
    const keys = [
      [6, 1],
      [5, 2],
      [5, 1],
      [7, 1],
    ];

    expect(firstKeysAfter(keys, undefined, 2)).toEqual([
      [5, 1],
      [5, 2],
    ]);
    expect(firstKeysAfter(keys, [5, 2], 5)).toEqual([
      [6, 1],
      [7, 1],
    ]);
  });
});

describe('assemblePage', () => {
  const periods = reportPeriods('2026-03-02', '2026-03-15', 'week');

  it('fills every period, sums totals exactly and compares with the plan', () => {
    const page = assemblePage(
      [
        logged({
          user_id: 5,
          first_name: 'Ada',
          last_name: 'L',
          period_key: '2026-03-09',
          logged_hours: '0.10',
          approved_hours: '0.10',
          billable_hours: '0.00',
        }),
        logged({
          user_id: 5,
          first_name: 'Ada',
          last_name: 'L',
          period_key: '2026-03-02',
          logged_hours: '0.20',
          approved_hours: '0',
          billable_hours: '0.20',
        }),
        logged({ user_id: 6, first_name: 'Bo', last_name: 'B' }),
      ],
      plannedGroups(
        [
          planned({ user_id: 6, period_start: '2026-03-09', confirmed_hours: 1 / 3, tentative_hours: 2 }),
          planned({ user_id: 5, confirmed_hours: 0.1 }),
        ],
        'user',
        undefined,
      ),
      periods,
      'user',
      5,
    );

    expect(page).toEqual({
      data: [
        {
          user_id: 5,
          first_name: 'Ada',
          last_name: 'L',
          totals: {
            logged_hours: 0.3,
            approved_hours: 0.1,
            billable_hours: 0.2,
            planned_hours: 0.1,
            tentative_hours: 0,
            variance_hours: 0.2,
          },
          periods: [
            {
              period_start: '2026-03-02',
              period_end: '2026-03-08',
              logged_hours: 0.2,
              approved_hours: 0,
              billable_hours: 0.2,
              planned_hours: 0.1,
              tentative_hours: 0,
              variance_hours: 0.1,
            },
            {
              period_start: '2026-03-09',
              period_end: '2026-03-15',
              logged_hours: 0.1,
              approved_hours: 0.1,
              billable_hours: 0,
              planned_hours: 0,
              tentative_hours: 0,
              variance_hours: 0.1,
            },
          ],
        },
        {
          user_id: 6,
          first_name: 'Bo',
          last_name: 'B',
          totals: {
            logged_hours: 0,
            approved_hours: 0,
            billable_hours: 0,
            planned_hours: 0.33,
            tentative_hours: 2,
            variance_hours: -0.33,
          },
          periods: [
            expect.objectContaining({ period_start: '2026-03-02', logged_hours: 0, planned_hours: 0 }),
            expect.objectContaining({
              period_start: '2026-03-09',
              planned_hours: 0.33,
              variance_hours: -0.33,
            }),
          ],
        },
      ],
      next_cursor: null,
      has_more: false,
    });
  });

  it('leaves the plan out without compare, and pages by the last key shown', () => {
    const page = assemblePage(
      [
        logged({ user_id: 5, project_id: 1, project_name: 'P', period_key: '2026-03-02', logged_hours: '2' }),
        logged({ user_id: 5, project_id: 2, project_name: 'Q', period_key: '2026-03-02', logged_hours: '1' }),
      ],
      undefined,
      periods,
      'user,project',
      1,
    );

    expect(page.data).toEqual([expect.objectContaining({ user_id: 5, project_id: 1, project_name: 'P' })]);
    expect(page.data[0].totals).toEqual({ logged_hours: 2, approved_hours: 0, billable_hours: 0 });
    expect(page.has_more).toBe(true);
    expect(decodeCursor('user,project', page.next_cursor ?? '')).toEqual([5, 1]);
  });
});
