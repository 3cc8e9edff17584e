import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signTestToken } from '@platform/testing';
import type { PlannedHoursRow } from '../src/planner-client/planner.client';
import { ProvisioningService } from '../src/provisioning/provisioning.service';
import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/** A planned day of the fake plan: a person's (user_id) or a placeholder's hours on a project. */
interface PlannedDay {
  project_id: number;
  user_id?: number;
  placeholder_id?: string;
  day: string;
  confirmed?: number;
  tentative?: number;
}

const DAY_MS = 86_400_000;
const mondayOf = (day: string) => {
  const days = Date.parse(`${day}T00:00:00Z`) / DAY_MS;
  return new Date((days - ((days + 3) % 7)) * DAY_MS).toISOString().slice(0, 10);
};

/**
 * The planner's GET /v2/reports/planned-hours over fixed planned days, summed by period as the planner
 * sums them (a week keyed by its Monday, a month by its 1st, only the days inside from..to), recording
 * each request.
 */
class FakePlanner {
  readonly requests: { url: URL; authorization: string | undefined }[] = [];
  days: PlannedDay[] = [];
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
    const granularity = url.searchParams.get('granularity');
    const rows = new Map<string, PlannedHoursRow>();
    for (const day of this.days) {
      if (!projectIds.includes(day.project_id) || day.day < from || day.day > to) {
        continue;
      }
      const periodStart =
        granularity === 'week'
          ? mondayOf(day.day)
          : granularity === 'month'
            ? `${day.day.slice(0, 7)}-01`
            : day.day;
      const key = `${day.project_id}|${day.user_id}|${day.placeholder_id}|${periodStart}`;
      const row = rows.get(key) ?? {
        project_id: day.project_id,
        user_id: day.user_id ?? null,
        placeholder_id: day.placeholder_id ?? null,
        position_id: null,
        category_id: null,
        period_start: periodStart,
        confirmed_hours: 0,
        tentative_hours: 0,
      };
      row.confirmed_hours += day.confirmed ?? 0;
      row.tentative_hours += day.tentative ?? 0;
      rows.set(key, row);
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ from, to, granularity, rows: [...rows.values()] }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface Figures {
  logged_hours: number;
  approved_hours: number;
  billable_hours: number;
  planned_hours?: number;
  tentative_hours?: number;
  variance_hours?: number;
}
interface Row {
  user_id?: number;
  first_name?: string | null;
  last_name?: string | null;
  project_id?: number;
  project_name?: string | null;
  totals: Figures;
  periods: (Figures & { period_start: string; period_end: string })[];
}
interface Report {
  data: Row[];
  next_cursor: string | null;
  has_more: boolean;
}

/** Figures with the plan: logged, approved, billable, planned, tentative; variance = logged − planned. */
const compared = (
  logged: number,
  approved: number,
  billable: number,
  planned: number,
  tentative: number,
) => ({
  logged_hours: logged,
  approved_hours: approved,
  billable_hours: billable,
  planned_hours: planned,
  tentative_hours: tentative,
  variance_hours: Math.round((logged - planned) * 100) / 100,
});
const plain = (logged: number, approved: number, billable: number) => ({
  logged_hours: logged,
  approved_hours: approved,
  billable_hours: billable,
});
const WEEK_10 = { period_start: '2026-03-02', period_end: '2026-03-08' };
const WEEK_11 = { period_start: '2026-03-09', period_end: '2026-03-15' };
const FEBRUARY = { period_start: '2026-02-01', period_end: '2026-02-28' };
const MARCH = { period_start: '2026-03-01', period_end: '2026-03-31' };
const WEEKS = 'granularity=week&from=2026-03-02&to=2026-03-15';

describe('main-api time report (e2e)', () => {
  const planner = new FakePlanner();
  let app: MainApiTestApp;
  let company: number;
  let boss: number;
  let worker: number;
  let analyst: number;
  let alpha: number;
  let beta: number;
  let gamma: number;
  let deleted: number;
  let theirUser: number;
  let theirProject: number;

  const tokenOf = (role: number, userId: number, companyId = company) =>
    `Bearer ${signTestToken({ keys: app.keys, companyId, roleId: role, subject: `user:${userId}` })}`;
  const get = (query: string, authorization = tokenOf(1, boss)) =>
    app.call('GET', `/reports/time?${query}`, undefined, { headers: { authorization } });
  const report = async (query: string, authorization?: string) => {
    const response = await get(query, authorization);
    expect(response.statusCode).toBe(200);
    return response.json<Report>();
  };
  const created = async (url: string, body: object, companyId = company) => {
    const response = await app.call('POST', url, body, { company: companyId });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  };
  const logged = async (
    userId: number,
    projectId: number,
    date: string,
    hours: number,
    status: 'draft' | 'submitted' | 'approved' | 'rejected',
    companyId = company,
  ) => {
    const id = await created('/hours', { user_id: userId, project_id: projectId, date, hours }, companyId);
    if (status !== 'draft') {
      await app.dataSource.query(`UPDATE main_api.time_entries SET status = $1 WHERE id = $2`, [status, id]);
    }
  };

  beforeAll(async () => {
    app = await startMainApiTestApp(['Time Agency', 'Other Time Agency'], {
      PLANNER_URL: await planner.start(),
    });
    company = app.companies[0].companyId;
    boss = app.companies[0].userId;
    const provisioning = new ProvisioningService(app.dataSource);
    const person = (email: string, firstName: string, lastName: string) =>
      provisioning.addUser({ companyId: company, email, firstName, lastName, roleId: 4 });
    worker = (await person('w@time.test', 'Wes', 'Worker')).userId;
    analyst = (await person('a@time.test', 'Ana', 'Analyst')).userId;
    const client = await created('/clients', { name: 'Northwind' });
    alpha = await created('/projects', { name: 'Alpha', client_id: client });
    beta = await created('/projects', { name: 'Beta', client_id: client, billable: false });
    gamma = await created('/projects', { name: 'Gamma', client_id: client });
    deleted = await created('/projects', { name: 'Gone', client_id: client });
    await app.dataSource.query(`UPDATE main_api.projects SET deleted_at = now() WHERE id = $1`, [deleted]);

    // Week 10 is 2026-03-02..08, week 11 03-09..15. Beta is not billable, so its entries are not.
    await logged(worker, alpha, '2026-03-02', 3.5, 'approved');
    await logged(worker, alpha, '2026-03-04', 2.25, 'submitted');
    await logged(worker, beta, '2026-03-03', 4, 'draft');
    await logged(worker, alpha, '2026-03-10', 1, 'rejected');
    await logged(analyst, alpha, '2026-03-11', 6, 'draft');
    await logged(boss, beta, '2026-02-20', 5, 'approved');
    await logged(worker, alpha, '2026-03-16', 8, 'draft');
    await logged(analyst, beta, '2026-03-01', 2, 'draft');

    const other = app.companies[1].companyId;
    theirUser = app.companies[1].userId;
    theirProject = await created(
      '/projects',
      { name: 'Theirs', client_id: await created('/clients', { name: 'Theirs' }, other) },
      other,
    );
    await logged(theirUser, theirProject, '2026-03-03', 7, 'approved', other);

    planner.days = [
      { project_id: alpha, user_id: worker, day: '2026-03-03', confirmed: 5 },
      { project_id: alpha, user_id: worker, day: '2026-03-05', tentative: 1 },
      { project_id: alpha, user_id: worker, day: '2026-03-10', confirmed: 2 },
      { project_id: alpha, user_id: worker, day: '2026-03-20', confirmed: 8 },
      { project_id: alpha, placeholder_id: 'designer', day: '2026-03-12', confirmed: 10 },
      { project_id: beta, user_id: worker, day: '2026-03-04', tentative: 3 },
      { project_id: gamma, user_id: analyst, day: '2026-03-13', confirmed: 4, tentative: 2 },
      { project_id: deleted, user_id: worker, day: '2026-03-03', confirmed: 100 },
      { project_id: theirProject, user_id: theirUser, day: '2026-03-03', confirmed: 9 },
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

  it('answers weeks by person and project, against the plan, every figure summed by hand', async () => {
    const authorization = tokenOf(1, boss);

    const answer = await report(`${WEEKS}&compare=planned`, authorization);

    expect(answer).toEqual({
      next_cursor: null,
      has_more: false,
      data: [
        {
          user_id: worker,
          first_name: 'Wes',
          last_name: 'Worker',
          project_id: alpha,
          project_name: 'Alpha',
          // 3.5 approved + 2.25 submitted; the rejected hour of week 11 counts nowhere. Plan: 5 + 2.
          totals: compared(5.75, 3.5, 5.75, 7, 1),
          periods: [
            { ...WEEK_10, ...compared(5.75, 3.5, 5.75, 5, 1) },
            { ...WEEK_11, ...compared(0, 0, 0, 2, 0) },
          ],
        },
        {
          user_id: worker,
          first_name: 'Wes',
          last_name: 'Worker',
          project_id: beta,
          project_name: 'Beta',
          totals: compared(4, 0, 0, 0, 3),
          periods: [
            { ...WEEK_10, ...compared(4, 0, 0, 0, 3) },
            { ...WEEK_11, ...compared(0, 0, 0, 0, 0) },
          ],
        },
        {
          user_id: analyst,
          first_name: 'Ana',
          last_name: 'Analyst',
          project_id: alpha,
          project_name: 'Alpha',
          totals: compared(6, 0, 6, 0, 0),
          periods: [
            { ...WEEK_10, ...compared(0, 0, 0, 0, 0) },
            { ...WEEK_11, ...compared(6, 0, 6, 0, 0) },
          ],
        },
        {
          // Planned, nothing logged: listed all the same.
          user_id: analyst,
          first_name: 'Ana',
          last_name: 'Analyst',
          project_id: gamma,
          project_name: 'Gamma',
          totals: compared(0, 0, 0, 4, 2),
          periods: [
            { ...WEEK_10, ...compared(0, 0, 0, 0, 0) },
            { ...WEEK_11, ...compared(0, 0, 0, 4, 2) },
          ],
        },
      ],
    });
    // One call, for every project of the company that is not deleted, with the caller's own token.
    expect(planner.requests).toHaveLength(1);
    const [call] = planner.requests;
    expect(call.authorization).toBe(authorization);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      project_ids: [alpha, beta, gamma].join(','),
      from: '2026-03-02',
      to: '2026-03-15',
      granularity: 'week',
    });
  });

  it('sums the plan of placeholders only by project alone', async () => {
    const answer = await report(`group_by=project&${WEEKS}&compare=planned`);

    expect(answer.data).toEqual([
      {
        project_id: alpha,
        project_name: 'Alpha',
        // Week 11: the analyst's 6 h; planned: the worker's 2 h and the designer placeholder's 10 h.
        totals: compared(11.75, 3.5, 11.75, 17, 1),
        periods: [
          { ...WEEK_10, ...compared(5.75, 3.5, 5.75, 5, 1) },
          { ...WEEK_11, ...compared(6, 0, 6, 12, 0) },
        ],
      },
      {
        project_id: beta,
        project_name: 'Beta',
        totals: compared(4, 0, 0, 0, 3),
        periods: [
          { ...WEEK_10, ...compared(4, 0, 0, 0, 3) },
          { ...WEEK_11, ...compared(0, 0, 0, 0, 0) },
        ],
      },
      {
        project_id: gamma,
        project_name: 'Gamma',
        totals: compared(0, 0, 0, 4, 2),
        periods: [
          { ...WEEK_10, ...compared(0, 0, 0, 0, 0) },
          { ...WEEK_11, ...compared(0, 0, 0, 4, 2) },
        ],
      },
    ]);
  });

  it('answers months by person, each cut to from and to', async () => {
    const answer = await report(
      'group_by=user&granularity=month&from=2026-02-01&to=2026-03-31&compare=planned',
    );

    expect(answer.data).toEqual([
      {
        user_id: boss,
        first_name: 'Time Agency',
        last_name: 'Boss',
        totals: compared(5, 5, 0, 0, 0),
        periods: [
          { ...FEBRUARY, ...compared(5, 5, 0, 0, 0) },
          { ...MARCH, ...compared(0, 0, 0, 0, 0) },
        ],
      },
      {
        user_id: worker,
        first_name: 'Wes',
        last_name: 'Worker',
        // Alpha 3.5 + 2.25 + 8, Beta 4 (not billable); planned 5 + 2 + 8 on Alpha, tentative 1 + 3.
        totals: compared(17.75, 3.5, 13.75, 15, 4),
        periods: [
          { ...FEBRUARY, ...compared(0, 0, 0, 0, 0) },
          { ...MARCH, ...compared(17.75, 3.5, 13.75, 15, 4) },
        ],
      },
      {
        user_id: analyst,
        first_name: 'Ana',
        last_name: 'Analyst',
        // Alpha 6, Beta 2 (not billable); planned on Gamma.
        totals: compared(8, 0, 6, 4, 2),
        periods: [
          { ...FEBRUARY, ...compared(0, 0, 0, 0, 0) },
          { ...MARCH, ...compared(8, 0, 6, 4, 2) },
        ],
      },
    ]);
    expect(planner.requests[0].url.searchParams.get('granularity')).toBe('month');
  });

  it('cuts the periods at from and to and gives each day with granularity=day', async () => {
    const weeks = await report('group_by=user&user_ids=' + worker + '&from=2026-03-03&to=2026-03-10');
    const days = await report(
      `group_by=project&project_ids=${beta}&granularity=day&from=2026-03-01&to=2026-03-03`,
    );

    expect(weeks.data).toEqual([
      expect.objectContaining({
        user_id: worker,
        // 4 on Beta and 2.25 on Alpha; the 3.5 of 03-02 is before from, the 1 of 03-10 rejected.
        totals: plain(6.25, 0, 2.25),
        periods: [
          { period_start: '2026-03-03', period_end: '2026-03-08', ...plain(6.25, 0, 2.25) },
          { period_start: '2026-03-09', period_end: '2026-03-10', ...plain(0, 0, 0) },
        ],
      }),
    ]);
    expect(days.data).toEqual([
      {
        project_id: beta,
        project_name: 'Beta',
        totals: plain(6, 0, 0),
        periods: [
          { period_start: '2026-03-01', period_end: '2026-03-01', ...plain(2, 0, 0) },
          { period_start: '2026-03-02', period_end: '2026-03-02', ...plain(0, 0, 0) },
          { period_start: '2026-03-03', period_end: '2026-03-03', ...plain(4, 0, 0) },
        ],
      },
    ]);
  });

  it('makes no planner call without compare, and answers while the planner is down', async () => {
    planner.failing = true;

    const answer = await report(WEEKS);
    const withPlan = await get(`${WEEKS}&compare=planned`);

    expect(answer.data.map((row) => [row.user_id, row.project_id])).toEqual([
      [worker, alpha],
      [worker, beta],
      [analyst, alpha],
    ]);
    expect(answer.data[0]).toEqual({
      user_id: worker,
      first_name: 'Wes',
      last_name: 'Worker',
      project_id: alpha,
      project_name: 'Alpha',
      totals: plain(5.75, 3.5, 5.75),
      periods: [
        { ...WEEK_10, ...plain(5.75, 3.5, 5.75) },
        { ...WEEK_11, ...plain(0, 0, 0) },
      ],
    });
    expect(withPlan.statusCode).toBe(503);
    expect(planner.requests).toHaveLength(1);
  });

  it('asks the planner for project_ids only when given, and narrows the entries to them', async () => {
    const answer = await report(`group_by=user&${WEEKS}&compare=planned&project_ids=${gamma}`);

    expect(planner.requests.map(({ url }) => url.searchParams.get('project_ids'))).toEqual([String(gamma)]);
    expect(answer.data).toEqual([
      expect.objectContaining({ user_id: analyst, totals: compared(0, 0, 0, 4, 2) }),
    ]);
  });

  it('walks every group exactly once a page at a time', async () => {
    const everyGroup = (await report(`${WEEKS}&compare=planned`)).data;
    const pages: Report[] = [];
    let cursor: string | null = null;
    do {
      const page = await report(
        `${WEEKS}&compare=planned&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor !== null && pages.length < 10);

    expect(pages.map((page) => page.data.length)).toEqual([1, 1, 1, 1]);
    expect(pages.map((page) => page.has_more)).toEqual([true, true, true, false]);
    expect(pages.flatMap((page) => page.data)).toEqual(everyGroup);
  });

  it('shows roles 4 and 5 only their own time and plan, whatever user_ids says', async () => {
    const own = tokenOf(4, worker);

    const byPersonAndProject = await report(`${WEEKS}&compare=planned&user_ids=${analyst}`, own);
    const byProject = await report(`group_by=project&${WEEKS}&compare=planned`, own);
    const freelancer = await report(`group_by=user&${WEEKS}`, tokenOf(5, analyst));

    expect(byPersonAndProject.data).toEqual([]);
    expect((await report(`${WEEKS}&compare=planned`, own)).data.map((row) => row.project_id)).toEqual([
      alpha,
      beta,
    ]);
    // Alpha: the worker's hours and plan only (the analyst's 6 h and the placeholder's 10 h not).
    expect(byProject.data.map((row) => [row.project_id, row.totals])).toEqual([
      [alpha, compared(5.75, 3.5, 5.75, 7, 1)],
      [beta, compared(4, 0, 0, 0, 3)],
    ]);
    expect(freelancer.data).toEqual([expect.objectContaining({ user_id: analyst, totals: plain(6, 0, 6) })]);
  });

  it('refuses role 6', async () => {
    const response = await get(WEEKS, tokenOf(6, boss));

    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 403, code: 'AC006' });
  });

  it("never shows another company's entries or plan", async () => {
    const theirs = await report(
      `${WEEKS}&compare=planned`,
      tokenOf(1, theirUser, app.companies[1].companyId),
    );
    const ours = await report(`${WEEKS}&user_ids=${theirUser}&project_ids=${theirProject}`);

    expect(theirs.data).toEqual([
      expect.objectContaining({
        user_id: theirUser,
        project_id: theirProject,
        totals: compared(7, 7, 7, 9, 0),
      }),
    ]);
    expect(planner.requests[0].url.searchParams.get('project_ids')).toBe(String(theirProject));
    expect(ours.data).toEqual([]);
  });

  it.each([
    ['granularity=week&to=2026-03-15', 'from'],
    ['from=2026-03-02', 'to'],
    ['from=2026-02-30&to=2026-03-15', 'from'],
    ['from=2026-03-02&to=2026-03-01', 'to'],
    ['from=2026-01-01&to=2027-01-06', 'to'],
    [`${WEEKS}&group_by=client`, 'group_by'],
    [`${WEEKS.replace('week', 'year')}`, 'granularity'],
    [`${WEEKS}&compare=actual`, 'compare'],
    [`${WEEKS}&limit=0`, 'limit'],
    [`${WEEKS}&limit=201`, 'limit'],
    [`${WEEKS}&user_ids=a,b`, 'user_ids'],
    [`${WEEKS}&cursor=not-a-cursor`, 'cursor'],
  ])('refuses %s naming %s', async (query, field) => {
    const response = await get(query);

    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toEqual([field]);
  });

  it('refuses the cursor of another group_by', async () => {
    const cursor = (await report(`${WEEKS}&limit=1`)).next_cursor ?? '';

    const response = await get(`group_by=user&${WEEKS}&cursor=${encodeURIComponent(cursor)}`);

    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toEqual(['cursor']);
  });

  it('takes 370 days, the longest report', async () => {
    const answer = await report('group_by=project&granularity=month&from=2026-01-01&to=2027-01-05');

    expect(answer.data.map((row) => [row.project_id, row.periods.length, row.totals])).toEqual([
      [alpha, 13, plain(19.75, 3.5, 19.75)],
      [beta, 13, plain(11, 5, 0)],
    ]);
  });
});
