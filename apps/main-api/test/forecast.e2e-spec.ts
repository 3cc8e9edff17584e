import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signTestToken } from '@platform/testing';
import type { PlannedHoursRow } from '../src/planner-client/planner.client';
import { ProvisioningService } from '../src/provisioning/provisioning.service';
import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/** The planner's GET /v2/reports/planned-hours, answering fixed rows, recording what it was asked. */
class FakePlanner {
  readonly requests: { url: URL; authorization: string | undefined }[] = [];
  rows: PlannedHoursRow[] = [];
  failing = false;
  private readonly server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://planner.test');
    this.requests.push({ url, authorization: request.headers.authorization });
    if (this.failing || url.pathname !== '/v2/reports/planned-hours') {
      response.writeHead(this.failing ? 500 : 404, { 'content-type': 'application/json' });
      response.end('{"message":"failing on purpose"}');
      return;
    }
    const projectIds = (url.searchParams.get('project_ids') ?? '').split(',').map(Number);
    const [from, to] = [url.searchParams.get('from') ?? '', url.searchParams.get('to') ?? ''];
    const rows = this.rows.filter(
      (row) => projectIds.includes(row.project_id) && row.period_start >= from && row.period_start <= to,
    );
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ from, to, granularity: url.searchParams.get('granularity'), rows }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const inDays = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
const monthEnd = (day: string) => {
  const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
};

interface Figures {
  actual_hours: number;
  actual_amount: number;
  scheduled_hours: number;
  scheduled_amount: number;
  tentative_hours: number;
  tentative_amount: number;
}
interface Period extends Figures {
  period_start: string;
  period_end: string;
  cumulative_hours: number;
  cumulative_amount: number;
}
interface Forecast {
  project_id: number;
  as_of: string;
  from: string;
  to: string;
  granularity: string;
  include_tentative: boolean;
  estimate_mode: string;
  totals: Figures & Record<string, number | string | null>;
  periods: Period[];
  by_position: Record<string, number | null>[];
  by_category: Record<string, number | null>[];
}
interface Group {
  group_by: string;
  key: Record<string, number | string | null>;
  project_ids: number[];
  totals: Record<string, number | string | null>;
  periods: Period[];
}
interface Report {
  data: Group[];
  next_cursor: string | null;
  has_more: boolean;
}

const NONE = {
  actual_hours: 0,
  actual_amount: 0,
  scheduled_hours: 0,
  scheduled_amount: 0,
  tentative_hours: 0,
  tentative_amount: 0,
};

describe('main-api forecasts (e2e)', () => {
  const planner = new FakePlanner();
  let app: MainApiTestApp;
  let token: string;
  let worker: number;
  let manager: number;
  let designer: number;
  let writer: number;
  let creative: number;
  let northwind: number;
  let contoso: number;
  let hourly: number;
  let fixed: number;
  let unpriced: number;
  let deleted: number;
  let foreign: number;

  const get = (url: string, role = 1) =>
    app.call('GET', url, undefined, {
      role,
      headers: role === 1 ? { authorization: `Bearer ${token}` } : {},
    });
  const created = async (url: string, body: object, company?: number) => {
    const response = await app.call('POST', url, body, { company });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  };
  const logApproved = async (body: object, approved = true) => {
    const id = await created('/hours', body);
    if (approved) {
      await app.dataSource.query(`UPDATE main_api.time_entries SET status = 'approved' WHERE id = $1`, [id]);
    }
  };

  beforeAll(async () => {
    app = await startMainApiTestApp(['Forecast Agency', 'Other Agency'], {
      PLANNER_URL: await planner.start(),
    });
    const company = app.companies[0].companyId;
    token = signTestToken({ keys: app.keys, companyId: company, roleId: 1 });
    const provisioning = new ProvisioningService(app.dataSource);
    const person = (email: string, firstName: string, lastName: string, roleId: number) =>
      provisioning.addUser({ companyId: company, email, firstName, lastName, roleId });
    worker = (await person('w@forecast.test', 'Wes', 'Worker', 4)).userId;
    manager = (await person('pm@forecast.test', 'Pat', 'Manager', 3)).userId;

    creative = await created('/position-categories', { name: 'Creative' });
    designer = await created('/positions', { name: 'Designer', category_id: creative });
    writer = await created('/positions', { name: 'Writer' });
    await app.dataSource.query(`UPDATE main_api.users SET user_position_id = $1 WHERE id = $2`, [
      writer,
      worker,
    ]);
    const ratecard = await created('/ratecards', {
      name: 'Rates',
      prices: [
        { position_id: designer, price: 100 },
        { position_id: writer, price: 50 },
      ],
    });
    northwind = await created('/clients', { name: 'Northwind' });
    contoso = await created('/clients', { name: 'Contoso' });

    // Hourly: budget 10 × 100 + 20 × 50 = 2000, costs 150.
    hourly = await created('/projects', {
      name: 'Hourly',
      client_id: northwind,
      pm_id: manager,
      income_type: 'hourly_rate',
      ratecard_id: ratecard,
      start: '2026-02-01',
      end: '2026-02-28',
      estimated_by_position: true,
      users_positions: [
        { id: designer, estimated_time: 10 },
        { id: writer, estimated_time: 20 },
      ],
    });
    await created(`/projects/${hourly}/project_cost`, { title: 'Stock', cost: 150, datetime: '2026-03-01' });
    const boss = app.companies[0].userId;
    await logApproved({
      user_id: worker,
      project_id: hourly,
      user_position_id: writer,
      date: '2026-03-02',
      hours: 6,
    });
    await logApproved({
      user_id: boss,
      project_id: hourly,
      user_position_id: designer,
      date: '2026-03-03',
      hours: 4,
    });
    await logApproved({ user_id: boss, project_id: hourly, date: '2026-03-05', hours: 1 });
    // Not approved: not actual time.
    await logApproved(
      { user_id: boss, project_id: hourly, user_position_id: designer, date: '2026-03-04', hours: 2 },
      false,
    );

    // Fixed price 5000, no manager; its hours still valued on the ratecard.
    fixed = await created('/projects', {
      name: 'Fixed',
      client_id: northwind,
      income_type: 'one_time',
      estimated: 5000,
      ratecard_id: ratecard,
      estimated_time: 40,
    });
    await logApproved({
      user_id: worker,
      project_id: fixed,
      user_position_id: writer,
      date: '2026-04-01',
      hours: 10,
    });

    // No income model, no ratecard: nothing has a price.
    unpriced = await created('/projects', { name: 'Unpriced', client_id: contoso, pm_id: manager });
    await logApproved({
      user_id: boss,
      project_id: unpriced,
      user_position_id: designer,
      date: '2026-05-04',
      hours: 3,
    });

    deleted = await created('/projects', { name: 'Deleted', client_id: contoso });
    await app.dataSource.query(`UPDATE main_api.projects SET deleted_at = now() WHERE id = $1`, [deleted]);
    const otherCompany = app.companies[1].companyId;
    foreign = await created(
      '/projects',
      { name: 'Theirs', client_id: await created('/clients', { name: 'Theirs' }, otherCompany) },
      otherCompany,
    );

    planner.rows = [
      plannedRow(hourly, { user_id: worker, period_start: inDays(1), confirmed_hours: 8 }),
      plannedRow(hourly, {
        user_id: worker,
        period_start: inDays(2),
        confirmed_hours: 4,
        tentative_hours: 14,
      }),
      plannedRow(hourly, {
        placeholder_id: 'a',
        position_id: designer,
        period_start: inDays(3),
        confirmed_hours: 8,
      }),
      plannedRow(hourly, {
        placeholder_id: 'b',
        category_id: creative,
        period_start: inDays(4),
        tentative_hours: 3,
      }),
      plannedRow(fixed, { user_id: worker, period_start: inDays(1), confirmed_hours: 2 }),
      plannedRow(deleted, { user_id: worker, period_start: inDays(1), confirmed_hours: 100 }),
    ];
  });

  afterAll(async () => {
    await app.close();
    await planner.close();
  });

  beforeEach(() => {
    planner.failing = false;
    planner.requests.length = 0;
  });

  function plannedRow(projectId: number, row: Partial<PlannedHoursRow>): PlannedHoursRow {
    return {
      project_id: projectId,
      user_id: null,
      placeholder_id: null,
      position_id: null,
      category_id: null,
      period_start: today,
      confirmed_hours: 0,
      tentative_hours: 0,
      ...row,
    };
  }

  const periodOf = (forecast: { periods: Period[] }, day: string) =>
    forecast.periods.find((period) => period.period_start <= day && day <= period.period_end);

  it('answers a forecast whose every figure is the hand-made sum of the rows the test made', async () => {
    const response = await get(`/projects/${hourly}/forecast`);

    expect(response.statusCode).toBe(200);
    const forecast = response.json<Forecast>();
    expect(forecast).toMatchObject({
      project_id: hourly,
      as_of: today,
      // The project's start; the last planned day (today + 4) is after its end.
      from: '2026-02-01',
      to: monthEnd(inDays(4)),
      granularity: 'month',
      include_tentative: false,
      estimate_mode: 'by_position',
    });
    // Actual: writer 6 h × 50, designer 4 h × 100, 1 h without a position (the draft 2 h not).
    // Scheduled: the worker (a writer) 8 + 4 h × 50, the designer placeholder 8 h × 100.
    // Tentative: the worker 14 h × 50, the placeholder without a position 3 h × 0.
    expect(forecast.totals).toEqual({
      actual_hours: 11,
      actual_amount: 700,
      scheduled_hours: 20,
      scheduled_amount: 1400,
      tentative_hours: 17,
      tentative_amount: 700,
      etc_hours: 20,
      etc_amount: 1400,
      eac_hours: 31,
      eac_amount: 2100,
      estimate_hours: 30,
      budget_amount: 2000,
      variance_hours: -1,
      variance_amount: -100,
      burn_ratio: 0.35,
      projected_profitability: 1950,
      // 700 by March, then 1100, 1300, and 2100 on the designer's day.
      budget_exhausted_on: inDays(3),
    });
    expect(forecast.by_position).toEqual([
      {
        position_id: designer,
        estimated_hours: 10,
        estimated_amount: 1000,
        ...NONE,
        actual_hours: 4,
        actual_amount: 400,
        scheduled_hours: 8,
        scheduled_amount: 800,
        eac_hours: 12,
        eac_amount: 1200,
        variance_hours: -2,
        variance_amount: -200,
      },
      {
        position_id: writer,
        estimated_hours: 20,
        estimated_amount: 1000,
        actual_hours: 6,
        actual_amount: 300,
        scheduled_hours: 12,
        scheduled_amount: 600,
        tentative_hours: 14,
        tentative_amount: 700,
        eac_hours: 18,
        eac_amount: 900,
        variance_hours: 2,
        variance_amount: 100,
      },
      {
        position_id: null,
        estimated_hours: 0,
        estimated_amount: 0,
        ...NONE,
        actual_hours: 1,
        tentative_hours: 3,
        eac_hours: 1,
        eac_amount: 0,
        variance_hours: -1,
        variance_amount: 0,
      },
    ]);
    expect(forecast.by_category).toEqual([
      {
        category_id: creative,
        estimated_hours: 0,
        estimated_amount: null,
        ...NONE,
        actual_hours: 4,
        actual_amount: 400,
        scheduled_hours: 8,
        scheduled_amount: 800,
        tentative_hours: 3,
        eac_hours: 12,
        eac_amount: 1200,
        variance_hours: -12,
        variance_amount: null,
      },
      {
        category_id: null,
        estimated_hours: 0,
        estimated_amount: null,
        actual_hours: 7,
        actual_amount: 300,
        scheduled_hours: 12,
        scheduled_amount: 600,
        tentative_hours: 14,
        tentative_amount: 700,
        eac_hours: 19,
        eac_amount: 900,
        variance_hours: -19,
        variance_amount: null,
      },
    ]);
    expect(forecast.periods[0]).toEqual({
      period_start: '2026-02-01',
      period_end: '2026-02-28',
      ...NONE,
      cumulative_hours: 0,
      cumulative_amount: 0,
    });
    expect(periodOf(forecast, '2026-03-15')).toEqual({
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      ...NONE,
      actual_hours: 11,
      actual_amount: 700,
      cumulative_hours: 11,
      cumulative_amount: 700,
    });
    expect(forecast.periods.at(-1)).toMatchObject({ cumulative_hours: 31, cumulative_amount: 2100 });
    const summed = (key: keyof Figures) => forecast.periods.reduce((total, period) => total + period[key], 0);
    expect([summed('scheduled_hours'), summed('tentative_hours'), summed('tentative_amount')]).toEqual([
      20, 17, 700,
    ]);
    expect(forecast.periods.map((period) => period.period_start)).toEqual(
      monthsFrom('2026-02-01', monthStart(inDays(4))),
    );

    // One call for the plan, from today on, by day, with the caller's own token.
    expect(planner.requests).toHaveLength(1);
    const [{ url, authorization }] = planner.requests;
    expect(authorization).toBe(`Bearer ${token}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      project_ids: String(hourly),
      from: today,
      to: inDays(3650),
      granularity: 'day',
    });
  });

  it('counts tentative hours when asked, in weeks of the range asked, cumulating what came before', async () => {
    const response = await get(
      `/projects/${hourly}/forecast?granularity=week&from=2026-03-01&to=2026-03-08&include_tentative=true`,
    );

    expect(response.statusCode).toBe(200);
    const forecast = response.json<Forecast>();
    // 2026-03-01 is a Sunday: its week starts on Monday 2026-02-23.
    expect(forecast).toMatchObject({ from: '2026-02-23', to: '2026-03-08', include_tentative: true });
    expect(forecast.periods).toEqual([
      {
        period_start: '2026-02-23',
        period_end: '2026-03-01',
        ...NONE,
        cumulative_hours: 0,
        cumulative_amount: 0,
      },
      {
        period_start: '2026-03-02',
        period_end: '2026-03-08',
        ...NONE,
        actual_hours: 11,
        actual_amount: 700,
        cumulative_hours: 11,
        cumulative_amount: 700,
      },
    ]);
    expect(forecast.totals).toMatchObject({
      etc_hours: 37,
      etc_amount: 2100,
      eac_hours: 48,
      eac_amount: 2800,
      variance_hours: -18,
      variance_amount: -800,
      projected_profitability: 2650,
      // 1100, then 1300 + 700 tentative: 2000 on the worker's second day.
      budget_exhausted_on: inDays(2),
    });
  });

  it('projects a fixed price as its income, and a project without a budget has no burn', async () => {
    const fixedForecast = (await get(`/projects/${fixed}/forecast`)).json<Forecast>();
    const unpricedForecast = (await get(`/projects/${unpriced}/forecast`)).json<Forecast>();

    expect(fixedForecast.estimate_mode).toBe('total');
    expect(fixedForecast.totals).toMatchObject({
      actual_amount: 500,
      scheduled_amount: 100,
      eac_hours: 12,
      estimate_hours: 40,
      budget_amount: 5000,
      variance_hours: 28,
      burn_ratio: 0.1,
      projected_profitability: 5000,
      budget_exhausted_on: null,
    });
    expect(unpricedForecast.totals).toMatchObject({
      actual_hours: 3,
      actual_amount: 0,
      budget_amount: 0,
      burn_ratio: null,
      budget_exhausted_on: null,
    });
  });

  it('lets only roles 1-3 read forecasts', async () => {
    for (const role of [4, 5, 6]) {
      expect((await get(`/projects/${hourly}/forecast`, role)).statusCode).toBe(403);
      expect((await get('/reports/forecast?group_by=client', role)).statusCode).toBe(403);
    }
    expect((await get(`/projects/${hourly}/forecast`, 3)).statusCode).toBe(200);
    expect(planner.requests).toHaveLength(1);
  });

  it("answers 404 for another company's project, a deleted one and an unknown one", async () => {
    for (const id of [foreign, deleted, 999_999]) {
      const response = await get(`/projects/${id}/forecast`);
      expect(response.statusCode).toBe(404);
    }
    expect(planner.requests).toHaveLength(0);
  });

  it.each([
    ['from=2026-02-30', 'from'],
    ['to=2026-13-01', 'to'],
    ['granularity=day', 'granularity'],
    ['include_tentative=yes', 'include_tentative'],
    ['from=2026-05-01&to=2026-04-01', 'to'],
    ['granularity=week&from=2010-01-01&to=2026-01-01', 'to'],
  ])('refuses %s naming %s', async (query, field) => {
    const response = await get(`/projects/${hourly}/forecast?${query}`);

    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toEqual([field]);
  });

  it('answers 503 when the planner fails, never a forecast without its plan', async () => {
    planner.failing = true;

    const forecast = await get(`/projects/${hourly}/forecast`);
    const report = await get('/reports/forecast?group_by=project');

    expect([forecast.statusCode, report.statusCode]).toEqual([503, 503]);
    expect(forecast.json()).toMatchObject({ status: 503, code: 'AC503' });
  });

  it('answers 503 when no planner is configured', async () => {
    const unplanned = await startMainApiTestApp(['Unplanned Agency']);
    try {
      const client = (await unplanned.call('POST', '/clients', { name: 'C' })).json<{ id: number }>().id;
      const project = (await unplanned.call('POST', '/projects', { name: 'P', client_id: client })).json<{
        id: number;
      }>().id;

      const response = await unplanned.call('GET', `/projects/${project}/forecast`);

      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 503, code: 'AC503' });
    } finally {
      await unplanned.close();
    }
  });

  describe('the report', () => {
    const year = today.slice(0, 4);

    /** Every group of a grouping, a page of one at a time, and how many planner calls each page made. */
    async function allGroups(query: string): Promise<{ groups: Group[]; callsPerPage: number[] }> {
      const groups: Group[] = [];
      const callsPerPage: number[] = [];
      let cursor: string | null = null;
      do {
        const before = planner.requests.length;
        const response = await get(
          `/reports/forecast?${query}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(response.statusCode).toBe(200);
        const page = response.json<Report>();
        callsPerPage.push(planner.requests.length - before);
        groups.push(...page.data);
        expect(page.has_more).toBe(page.next_cursor !== null);
        cursor = page.next_cursor;
      } while (cursor);
      return { groups, callsPerPage };
    }

    it.each([
      ['client', 'granularity=month'],
      ['project', 'granularity=week&include_tentative=true'],
      ['pm', `granularity=month&from=2026-01-01&to=${year}-12-31`],
    ])('sums by %s exactly the per-project forecasts (%s)', async (groupBy, range) => {
      const { groups, callsPerPage } = await allGroups(`group_by=${groupBy}&${range}`);

      expect(callsPerPage).toEqual(groups.map(() => 1));
      const projectRange = range.includes('from') ? range : `${range}&from=${year}-01-01&to=${year}-12-31`;
      for (const group of groups) {
        const forecasts = await Promise.all(
          group.project_ids.map(async (id) =>
            (await get(`/projects/${id}/forecast?${projectRange}`)).json<Forecast>(),
          ),
        );
        const sum = (figures: object[], key: string) =>
          figures.reduce((total, figure) => total + (figure as Record<string, number>)[key], 0);
        for (const [key, value] of Object.entries(group.totals)) {
          if (key === 'burn_ratio' || key === 'budget_exhausted_on') {
            continue;
          }
          expect([key, value]).toEqual([
            key,
            expect.closeTo(
              sum(
                forecasts.map((forecast) => forecast.totals),
                key,
              ),
              2,
            ),
          ]);
        }
        const budget = sum(
          forecasts.map((forecast) => forecast.totals),
          'budget_amount',
        );
        const actual = sum(
          forecasts.map((forecast) => forecast.totals),
          'actual_amount',
        );
        expect(group.totals.burn_ratio).toBe(
          budget === 0 ? null : Math.round((actual / budget) * 10_000) / 10_000,
        );
        const exhausted = forecasts.flatMap((forecast) => forecast.totals.budget_exhausted_on ?? []).sort();
        expect(group.totals.budget_exhausted_on).toBe(exhausted[0] ?? null);
        expect(group.periods.map((period) => period.period_start)).toEqual(
          forecasts[0].periods.map((period) => period.period_start),
        );
        group.periods.forEach((period, index) => {
          for (const key of ['actual_amount', 'scheduled_hours', 'tentative_amount', 'cumulative_amount']) {
            expect([key, period[key as keyof Period]]).toEqual([
              key,
              expect.closeTo(
                sum(
                  forecasts.map((forecast) => forecast.periods[index]),
                  key,
                ),
                2,
              ),
            ]);
          }
        });
      }
    });

    it('groups by key ascending, the projects without a manager last, never a deleted project', async () => {
      const byClient = (await allGroups('group_by=client')).groups;
      const byPm = (await allGroups('group_by=pm')).groups;
      const byProject = (await allGroups('group_by=project')).groups;

      expect(byClient.map((group) => [group.key, group.project_ids])).toEqual([
        [{ client_id: northwind, name: 'Northwind' }, [hourly, fixed]],
        [{ client_id: contoso, name: 'Contoso' }, [unpriced]],
      ]);
      expect(byPm.map((group) => [group.key, group.project_ids])).toEqual([
        [{ pm_id: manager, name: 'Pat Manager' }, [hourly, unpriced]],
        [{ pm_id: null, name: null }, [fixed]],
      ]);
      expect(byProject.map((group) => group.key)).toEqual([
        { project_id: hourly, name: 'Hourly' },
        { project_id: fixed, name: 'Fixed' },
        { project_id: unpriced, name: 'Unpriced' },
      ]);
      // The whole year by month, by default.
      expect(byClient[0].periods.map((period) => period.period_start)).toEqual(
        monthsFrom(`${year}-01-01`, `${year}-12-01`),
      );
      expect(byClient[0].totals).toMatchObject({
        actual_amount: 1200,
        budget_amount: 7000,
        burn_ratio: 0.1714,
      });
    });

    it('narrows the projects by filters, and names a malformed filter or cursor', async () => {
      const filtered = await get(
        `/reports/forecast?group_by=project&filters=${encodeURIComponent(JSON.stringify({ client_id: contoso }))}`,
      );
      const byIds = await get(
        `/reports/forecast?group_by=pm&filters=${encodeURIComponent(JSON.stringify({ project_ids: [fixed] }))}`,
      );
      const nothing = await get(
        `/reports/forecast?group_by=client&filters=${encodeURIComponent(JSON.stringify({ archived: true }))}`,
      );

      expect(filtered.json<Report>().data.map((group) => group.project_ids)).toEqual([[unpriced]]);
      expect(byIds.json<Report>().data.map((group) => group.key)).toEqual([{ pm_id: null, name: null }]);
      expect(nothing.json<Report>()).toEqual({ data: [], next_cursor: null, has_more: false });
      for (const [query, field] of [
        ['filters=%7Bnot%20json', 'filters'],
        [`filters=${encodeURIComponent('{"colour":1}')}`, 'filters.colour'],
        ['cursor=bm9wZQ', 'cursor'],
        ['limit=101', 'limit'],
      ]) {
        const response = await get(`/reports/forecast?group_by=client&${query}`);
        expect([query, response.statusCode, fieldsOf(response)]).toEqual([query, 400, [field]]);
      }
      const wrongGrouping = (await get('/reports/forecast?group_by=client&limit=1')).json<Report>()
        .next_cursor;
      const response = await get(`/reports/forecast?group_by=pm&cursor=${wrongGrouping}`);
      expect([response.statusCode, fieldsOf(response)]).toEqual([400, ['cursor']]);
    });
  });
});

/** The first day of each month from one month to another, both included. */
function monthsFrom(first: string, last: string): string[] {
  const months: string[] = [];
  for (let day = first; day <= last;) {
    months.push(day);
    const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
    day = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  }
  return months;
}
