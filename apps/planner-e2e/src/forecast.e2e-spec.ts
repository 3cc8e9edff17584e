import type { LightMyRequestResponse } from 'fastify';
import { startBoard, type Body, type Board } from './support/board-harness';

interface Totals {
  actual_hours: number;
  actual_amount: number;
  scheduled_hours: number;
  scheduled_amount: number;
  tentative_hours: number;
  tentative_amount: number;
  etc_hours: number;
  etc_amount: number;
  eac_hours: number;
  eac_amount: number;
  estimate_hours: number;
  budget_amount: number;
  variance_hours: number;
  variance_amount: number;
  burn_ratio: number | null;
  projected_profitability: number;
  budget_exhausted_on: string | null;
}

interface Period {
  period_start: string;
  period_end: string;
  actual_hours: number;
  actual_amount: number;
  scheduled_hours: number;
  scheduled_amount: number;
  tentative_hours: number;
  tentative_amount: number;
  cumulative_hours: number;
  cumulative_amount: number;
}

interface Forecast {
  project_id: number;
  from: string;
  to: string;
  estimate_mode: string;
  totals: Totals;
  periods: Period[];
  by_position: (Record<string, number | null> & { position_id: number | null })[];
}

interface Group {
  project_ids: number[];
  totals: Totals;
  periods: Period[];
}

interface BatchAnswer {
  results: { status: number; body: { id: number; version: number } }[];
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoWeekOf = (ms: number): string => {
  const date = new Date(ms);
  const thursday = ms + (3 - ((date.getUTCDay() + 6) % 7)) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
};
const ADDITIVE = [
  'actual_hours',
  'actual_amount',
  'scheduled_hours',
  'scheduled_amount',
  'tentative_hours',
  'tentative_amount',
  'etc_hours',
  'etc_amount',
  'eac_hours',
  'eac_amount',
  'estimate_hours',
  'budget_amount',
  'variance_hours',
  'variance_amount',
  'projected_profitability',
] as const;
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Will this project burn its budget (issue 40), end to end on the real services: time is logged,
 * submitted, approved and locked in main-api, a tracker imports its entries twice, the planner books
 * the weeks ahead, and the forecast (main-api, reading the planner's plan in one call) answers
 * figures this test recomputes from the rows it made. Dates are relative to today (UTC): the plan
 * starts next Monday, the time was two weeks ago.
 */
describe('forecast of actual plus planned (e2e)', () => {
  let board: Board;
  let ada: number;
  let bo: number;
  let designer: number;
  let writer: number;
  let campaign: number;
  let retainer: number;

  const monday = (() => {
    const now = Date.now();
    const today = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate(),
    );
    return today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  })();
  const day = (weeks: number, weekday: number) => dayOf(monday + (weeks * 7 + weekday) * DAY_MS);
  const past = isoWeekOf(monday - 14 * DAY_MS);

  const main = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, options = {}) =>
    board.main.call(method, url, body, options);
  const expectStatus = (answer: LightMyRequestResponse, status: number, message?: RegExp) => {
    expect({ status: answer.statusCode, body: answer.body }).toMatchObject({ status });
    if (message) {
      expect(answer.json<{ message: string }>().message).toMatch(message);
    }
  };

  beforeAll(async () => {
    board = await startBoard(['Forecasts', 'Elsewhere']);
    designer = await board.created(main('POST', '/positions', { name: 'Designer' }));
    writer = await board.created(main('POST', '/positions', { name: 'Writer' }));
    ada = await board.newPerson('Ada', { positionId: designer });
    bo = await board.newPerson('Bo', { positionId: writer });
    const ratecard = await board.created(
      main('POST', '/ratecards', {
        name: 'Standard',
        prices: [
          { position_id: designer, price: 100 },
          { position_id: writer, price: 80 },
        ],
      }),
    );
    const hourly = (name: string, lines: { id: number; estimated_time: number }[]) =>
      board.created(
        main('POST', '/projects', {
          name,
          client_id: board.clientId,
          income_type: 'hourly_rate',
          ratecard_id: ratecard,
          estimated_by_position: true,
          users_positions: lines,
        }),
      );
    // Budget: 40 h of design at 100 and 20 h of writing at 80 = 5,600.
    campaign = await hourly('Campaign', [
      { id: designer, estimated_time: 40 },
      { id: writer, estimated_time: 20 },
    ]);
    retainer = await hourly('Retainer', [{ id: writer, estimated_time: 10 }]);
  });

  afterAll(async () => {
    await board?.close();
  });

  it('logs, approves, locks and imports time, and forecasts it with the plan', async () => {
    // Two weeks ago: Ada logs Monday to Wednesday, 8 h each; the week is submitted and approved.
    for (const weekday of [0, 1, 2]) {
      await board.created(
        main('POST', '/time-entries', {
          user_id: ada,
          project_id: campaign,
          date: day(-2, weekday),
          hours: 8,
        }),
      );
    }
    expectStatus(await main('POST', `/timesheets/${ada}/${past}/submit`), 200);
    const approved = await main('POST', `/timesheets/${ada}/${past}/approve`, { note: 'Thanks' });
    expectStatus(approved, 200);
    expect(approved.json<{ status: string; total_hours: number }>()).toMatchObject({
      status: 'approved',
      total_hours: 24,
    });

    // A tracker's import of Bo's time, twice: the second finds every entry and changes nothing.
    const batch = {
      entries: [
        {
          source: 'toggl',
          external_id: 'T-1',
          user_id: bo,
          project_id: campaign,
          date: day(-2, 0),
          hours: 4,
        },
        {
          source: 'toggl',
          external_id: 'T-2',
          user_id: bo,
          project_id: campaign,
          date: day(-2, 1),
          hours: 6,
        },
      ],
    };
    const first = await board.ok<BatchAnswer>(main('POST', '/hours/batch', batch));
    const again = await board.ok<BatchAnswer>(main('POST', '/hours/batch', batch));
    expect(first.results.map((result) => result.status)).toEqual([201, 201]);
    expect(again.results.map((result) => [result.status, result.body.id, result.body.version])).toEqual(
      first.results.map((result) => [200, result.body.id, result.body.version]),
    );
    expectStatus(await main('POST', `/timesheets/${bo}/${past}/submit`), 200);
    expectStatus(await main('POST', `/timesheets/${bo}/${past}/approve`), 200);

    // That week is closed: no write into it, by any route; the week after stays open.
    expectStatus(await main('PUT', '/timesheet-lock', { locked_until: day(-2, 6) }), 200);
    expectStatus(
      await main('POST', '/hours', { user_id: ada, project_id: campaign, date: day(-2, 3), hours: 1 }),
      409,
      /TimesheetLocked/,
    );
    expectStatus(
      await main('POST', `/timesheets/${ada}/${past}/reject`, { note: 'Late' }),
      409,
      /TimesheetLocked/,
    );
    // Logged but never approved: not actual.
    await board.created(
      main('POST', '/time-entries', { user_id: ada, project_id: campaign, date: day(-1, 3), hours: 2 }),
    );

    // The plan: Ada full time on the campaign for the two weeks from next Monday (80 h, confirmed);
    // Bo tentatively half days next week (20 h); Bo two full days on the retainer the week after.
    const book = (body: Body) => board.ok(board.call('POST', '/v2/allocations', body), 201);
    await book({ user_id: ada, project_id: campaign, from: day(1, 0), to: day(2, 4), hours_per_day: 8 });
    await book({
      user_id: bo,
      project_id: campaign,
      from: day(1, 0),
      to: day(1, 4),
      hours_per_day: 4,
      status: 'tentative',
    });
    await book({ user_id: bo, project_id: retainer, from: day(2, 0), to: day(2, 1), hours_per_day: 8 });

    const forecast = await board.ok<Forecast>(main('GET', `/projects/${campaign}/forecast?granularity=week`));

    // By hand: actual = Ada 24 h × 100 + Bo 10 h × 80; scheduled = Ada 80 h × 100; tentative = Bo 20 h × 80.
    const actual = 24 * 100 + 10 * 80;
    const scheduled = 80 * 100;
    const budget = 40 * 100 + 20 * 80;
    expect(forecast.estimate_mode).toBe('by_position');
    expect(forecast.totals).toEqual({
      actual_hours: 34,
      actual_amount: actual,
      scheduled_hours: 80,
      scheduled_amount: scheduled,
      tentative_hours: 20,
      tentative_amount: 1600,
      etc_hours: 80,
      etc_amount: scheduled,
      eac_hours: 114,
      eac_amount: actual + scheduled,
      estimate_hours: 60,
      budget_amount: budget,
      variance_hours: 60 - 114,
      variance_amount: budget - (actual + scheduled),
      burn_ratio: Math.round((actual / budget) * 10_000) / 10_000,
      // hourly_rate: the income at completion is the work's value; no costs were recorded.
      projected_profitability: actual + scheduled,
      // 3,200 by two weeks ago, then 800 a day from next Monday: 5,600 on its Wednesday.
      budget_exhausted_on: day(1, 2),
    });
    // Weeks from the first actual to the last planned day: two weeks ago to the week after next.
    expect(forecast.from).toBe(day(-2, 0));
    expect(forecast.to).toBe(day(2, 6));
    expect(
      forecast.periods.map((period) => [
        period.period_start,
        period.actual_amount,
        period.scheduled_amount,
        period.tentative_amount,
        period.cumulative_amount,
      ]),
    ).toEqual([
      [day(-2, 0), actual, 0, 0, actual],
      [day(-1, 0), 0, 0, 0, actual],
      [day(0, 0), 0, 0, 0, actual],
      [day(1, 0), 0, 4000, 1600, actual + 4000],
      [day(2, 0), 0, 4000, 0, actual + 8000],
    ]);
    expect(forecast.by_position.map((row) => row.position_id)).toEqual(
      [designer, writer].sort((a, b) => a - b),
    );
    const byPosition = new Map(forecast.by_position.map((row) => [row.position_id, row]));
    expect(byPosition.get(designer)).toMatchObject({
      estimated_hours: 40,
      estimated_amount: 4000,
      actual_hours: 24,
      actual_amount: 2400,
      scheduled_hours: 80,
      scheduled_amount: 8000,
      eac_hours: 104,
      eac_amount: 10_400,
      variance_hours: -64,
      variance_amount: -6400,
    });
    expect(byPosition.get(writer)).toMatchObject({
      estimated_hours: 20,
      estimated_amount: 1600,
      actual_hours: 10,
      actual_amount: 800,
      tentative_hours: 20,
      tentative_amount: 1600,
      eac_hours: 10,
      eac_amount: 800,
    });

    // With tentative work counted: 1,600 more at completion, and Bo's 320 a day from next Monday.
    const withTentative = await board.ok<Forecast>(
      main('GET', `/projects/${campaign}/forecast?granularity=week&include_tentative=true`),
    );
    expect(withTentative.totals).toMatchObject({
      etc_amount: scheduled + 1600,
      eac_amount: actual + scheduled + 1600,
      eac_hours: 134,
      budget_exhausted_on: day(1, 2),
    });
    expect(withTentative.periods.at(-1)?.cumulative_amount).toBe(actual + scheduled + 1600);

    // Monthly, the same totals.
    const monthly = await board.ok<Forecast>(main('GET', `/projects/${campaign}/forecast?granularity=month`));
    expect(monthly.totals).toEqual(forecast.totals);
    expect(monthly.periods.at(-1)?.cumulative_amount).toBe(actual + scheduled);
  });

  it('the portfolio reconciles with the projects, and the time report compares planned and actual', async () => {
    const from = day(-2, 0);
    const to = day(2, 6);
    const query = `granularity=week&from=${from}&to=${to}`;
    const perProject = await Promise.all(
      [campaign, retainer].map((id) => board.ok<Forecast>(main('GET', `/projects/${id}/forecast?${query}`))),
    );
    for (const groupBy of ['client', 'project', 'pm']) {
      const groups: Group[] = [];
      for (let cursor: string | null = ''; cursor !== null;) {
        const page: { data: Group[]; next_cursor: string | null } = await board.ok(
          main(
            'GET',
            `/reports/forecast?group_by=${groupBy}&${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          ),
        );
        groups.push(...page.data);
        cursor = page.next_cursor;
      }
      expect(groups.flatMap((group) => group.project_ids).sort()).toEqual([campaign, retainer].sort());
      for (const group of groups) {
        const members = perProject.filter((forecast) => group.project_ids.includes(forecast.project_id));
        for (const figure of ADDITIVE) {
          expect([groupBy, figure, group.totals[figure]]).toEqual([
            groupBy,
            figure,
            round(members.reduce((sum, forecast) => sum + forecast.totals[figure], 0)),
          ]);
        }
        expect(group.periods.map((period) => period.cumulative_amount)).toEqual(
          members[0].periods.map((_, index) =>
            round(members.reduce((sum, forecast) => sum + forecast.periods[index].cumulative_amount, 0)),
          ),
        );
      }
    }
    const retainerForecast = perProject[1];
    expect(retainerForecast.totals).toMatchObject({
      scheduled_hours: 16,
      scheduled_amount: 1280,
      budget_exhausted_on: day(2, 1),
    });

    // Planned against logged, per person and project, by week.
    const report = await board.ok<{
      data: { user_id: number; project_id: number; totals: Record<string, number> }[];
    }>(
      main(
        'GET',
        `/reports/time?group_by=user,project&granularity=week&from=${from}&to=${to}&compare=planned`,
      ),
    );
    const row = (user: number, project: number) =>
      report.data.find((entry) => entry.user_id === user && entry.project_id === project)?.totals;
    expect(row(ada, campaign)).toMatchObject({
      logged_hours: 26,
      approved_hours: 24,
      planned_hours: 80,
      variance_hours: -54,
    });
    expect(row(bo, campaign)).toMatchObject({
      logged_hours: 10,
      approved_hours: 10,
      planned_hours: 0,
      tentative_hours: 20,
    });
    expect(row(bo, retainer)).toMatchObject({ logged_hours: 0, planned_hours: 16, variance_hours: -16 });

    // Another company sees none of it.
    const other = {
      company: board.main.companies[1].companyId,
      subject: `user:${board.main.companies[1].userId}`,
    };
    expectStatus(await main('GET', `/projects/${campaign}/forecast`, undefined, other), 404);
    const theirs = await board.ok<{ data: Group[] }>(
      main('GET', `/reports/forecast?group_by=project&${query}`, undefined, other),
    );
    expect(theirs.data).toEqual([]);
  });
});
