import { ProvisioningService } from '../src/provisioning/provisioning.service';
import {
  fieldsOf,
  startMainApiTestApp,
  type CallOptions,
  type MainApiTestApp,
} from './support/main-api-test-app';

interface Lookups {
  users: { id: number; is_deleted: boolean; labels: number[] }[];
  projects: { id: number; name: string; client: { id: number; name: string } | null }[];
  working_time: Record<string, { user_id: number; day_of_week: number }[]>;
  leaves: { id: number; user_id: number; start: string }[];
  labels: { id: number; name: string; color: string; model: string }[];
}

interface ListedProject {
  id: number;
  name: string;
  client: { id: number; name: string } | null;
}

describe('main-api planner look-ups (e2e)', () => {
  let app: MainApiTestApp;
  let companyA: number;
  let companyB: number;
  let worker: number;
  let colleague: number;
  let foreigner: number;
  let remote: { id: number; name: string; color: string; model: string };
  let senior: number;
  let projectLabel: number;
  let foreignLabel: number;
  let acme: number;
  let withClient: number;
  let clientGone: number;
  let foreignProject: number;
  let clientUser: number;

  const from = '2027-01-01';
  const to = '2027-01-31';

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: object,
    options: CallOptions = {},
  ) => app.call(method, url, body, { company: companyA, ...options });
  const asB = (): CallOptions => ({ company: companyB, subject: `user:${foreigner}` });
  const idOf = async (response: Promise<{ json<T>(): T; statusCode: number }>): Promise<number> => {
    const answered = await response;
    expect([200, 201]).toContain(answered.statusCode);
    return answered.json<{ id: number }>().id;
  };
  const lookups = (query: string, options: CallOptions = {}) =>
    call('GET', `/planner/lookups${query}`, undefined, options);
  const leave = (userId: number, start: string, end: string) => ({
    userId,
    leaveTypeId: 1,
    start,
    end,
    allDay: true,
  });
  const week = [
    { day_of_week: 1, daily_hours: 8, start_at: '09:00:00', end_at: '18:00:00', break_time: 1 },
    { day_of_week: 3, daily_hours: 6.5, start_at: '10:00:00', end_at: '17:00:00' },
  ];

  beforeAll(async () => {
    app = await startMainApiTestApp(['LA', 'LB']);
    [{ companyId: companyA }, { companyId: companyB, userId: foreigner }] = app.companies;
    const provisioning = new ProvisioningService(app.dataSource);
    const collaborator = async (email: string, firstName: string, lastName: string) =>
      (await provisioning.addUser({ companyId: companyA, email, firstName, lastName, roleId: 4 })).userId;
    worker = await collaborator('w@la.test', 'W', 'K');
    colleague = await collaborator('c@la.test', 'C', 'L');

    // Labels: one user label carried, one user label nobody carries, one project label a user
    // carries by mistake (not a user label, so not answered), and one of the other company.
    const created = await call('POST', '/labels', { name: 'Remote', color: '#00AA11', model: 'user' });
    expect(created.statusCode).toBe(201);
    remote = created.json();
    senior = await idOf(call('POST', '/labels', { name: 'Senior', model: 'user' }));
    projectLabel = await idOf(call('POST', '/labels', { name: 'Priority', model: 'project' }));
    foreignLabel = await idOf(call('POST', '/labels', { name: 'Theirs', model: 'user' }, asB()));
    expect((await call('PUT', `/users/${worker}`, { labels: [remote.id, projectLabel] })).statusCode).toBe(
      200,
    );
    expect((await call('PUT', `/users/${foreigner}`, { labels: [foreignLabel] }, asB())).statusCode).toBe(
      200,
    );

    // Working weeks: the worker has one, the colleague none; the foreigner has one in company B.
    expect((await call('PUT', `/working-time/users/${worker}`, { entries: week })).statusCode).toBe(200);
    expect(
      (await call('PUT', `/working-time/users/${foreigner}`, { entries: [week[0]] }, asB())).statusCode,
    ).toBe(200);

    // Leaves: the worker's in the period and one after it; the foreigner's in the period.
    for (const [userId, start, end, options] of [
      [worker, '2027-01-10T00:00:00Z', '2027-01-12T23:59:59Z', {}],
      [worker, '2027-03-01T00:00:00Z', '2027-03-02T00:00:00Z', {}],
      [foreigner, '2027-01-10T00:00:00Z', '2027-01-11T00:00:00Z', asB()],
    ] as const) {
      expect((await call('POST', '/user/leaves', leave(userId, start, end), options)).statusCode).toBe(201);
    }

    // The colleague is deleted: look-ups by id still name them.
    expect((await call('DELETE', `/users/${colleague}`)).statusCode).toBe(200);

    // Projects: one with its client, one whose client was deleted (client null), one of company B.
    acme = await idOf(call('POST', '/clients', { name: 'Acme' }));
    const gone = await idOf(call('POST', '/clients', { name: 'Gone' }));
    withClient = await idOf(call('POST', '/projects', { name: 'Spring campaign', client_id: acme }));
    clientGone = await idOf(call('POST', '/projects', { name: 'Orphan', client_id: gone }));
    expect((await call('DELETE', `/clients/${gone}`)).statusCode).toBe(200);
    const foreignClient = await idOf(call('POST', '/clients', { name: 'Foreign' }, asB()));
    foreignProject = await idOf(
      call('POST', '/projects', { name: 'Theirs', client_id: foreignClient }, asB()),
    );

    clientUser = await idOf(
      call('POST', '/users', {
        first_name: 'Cli',
        last_name: 'Ent',
        email: 'client@la.test',
        role_id: 6,
        client_id: acme,
      }),
    );
  });

  afterAll(() => app.close());

  it('answers each part as the endpoint that serves it alone, and only the labels the users carry', async () => {
    const userIds = `${worker},${colleague}`;
    const projectIds = `${withClient},${clientGone}`;

    const response = await lookups(`?user_ids=${userIds}&project_ids=${projectIds}&from=${from}&to=${to}`);
    const users = await call('GET', `/users?ids=${userIds}`);
    const weeks = await call('GET', `/working-time/company/with/users?user_ids=${userIds}`);
    const leaves = await call('GET', `/user/leaves?user_ids=${userIds}&from=${from}&to=${to}`);
    const projects = await call(
      'GET',
      `/projects?page=false&filters=${encodeURIComponent(JSON.stringify({ id: [withClient, clientGone] }))}`,
    );

    expect(response.statusCode).toBe(200);
    const body = response.json<Lookups>();
    expect(Object.keys(body).sort()).toEqual([
      'categories',
      'holidays',
      'labels',
      'leaves',
      'people',
      'people_truncated',
      'positions',
      'projects',
      'revision',
      'schedules',
      'tasks',
      'time_zones',
      'users',
      'working_time',
    ]);
    expect(body.users).toEqual(users.json());
    expect(body.working_time).toEqual(weeks.json());
    expect(body.leaves).toEqual(leaves.json());
    expect(body.projects).toEqual(
      projects
        .json<ListedProject[]>()
        .sort((a, b) => a.id - b.id)
        .map((project) => ({
          id: project.id,
          name: project.name,
          client: project.client && { id: project.client.id, name: project.client.name },
        })),
    );
    // What those answers hold, so the comparisons above are not of two empty answers.
    expect(body.users.map((user) => [user.id, user.is_deleted])).toEqual([
      [worker, false],
      [colleague, true],
    ]);
    expect(Object.keys(body.working_time)).toEqual([String(worker)]);
    expect(body.working_time[String(worker)].map((entry) => entry.day_of_week)).toEqual([1, 3]);
    expect(body.leaves.map((item) => [item.user_id, item.start])).toEqual([
      [worker, '2027-01-10T00:00:00.000Z'],
    ]);
    expect(body.projects).toEqual([
      { id: withClient, name: 'Spring campaign', client: { id: acme, name: 'Acme' } },
      { id: clientGone, name: 'Orphan', client: null },
    ]);
    expect(body.labels).toEqual([
      { id: remote.id, version: 1, name: 'Remote', color: '#00aa11', model: 'user' },
    ]);
    expect(body.labels).toEqual(
      (await call('GET', '/categories/labels-model?model=user'))
        .json<{ id: number }[]>()
        .filter((label) => label.id === remote.id),
    );
    expect(body.labels.map((label) => label.id)).not.toContain(senior);
  });

  it("leaves another company's users and projects out, without an error", async () => {
    const own = await lookups(
      `?user_ids=${worker},${colleague}&project_ids=${withClient}&from=${from}&to=${to}`,
    );
    const mixed = await lookups(
      `?user_ids=${foreigner},${worker},${colleague}&project_ids=${foreignProject},${withClient}&from=${from}&to=${to}`,
    );
    const onlyForeign = await lookups(
      `?user_ids=${foreigner}&project_ids=${foreignProject}&from=${from}&to=${to}`,
    );
    const seenByB = await lookups(
      `?user_ids=${foreigner},${worker}&project_ids=${foreignProject},${withClient}&from=${from}&to=${to}`,
      asB(),
    );

    expect(mixed.statusCode).toBe(200);
    expect(mixed.json()).toEqual(own.json());
    expect(onlyForeign.json()).toEqual({
      revision: expect.stringMatching(/^\d+$/),
      people: [],
      people_truncated: false,
      users: [],
      projects: [],
      working_time: {},
      schedules: {},
      leaves: [],
      labels: [],
      tasks: [],
      time_zones: {},
      holidays: [],
      positions: [],
      categories: [],
    });
    // The other company asking sees its own, and none of the first company's.
    const theirs = seenByB.json<Lookups>();
    expect(theirs.users.map((user) => user.id)).toEqual([foreigner]);
    expect(theirs.projects.map((project) => project.id)).toEqual([foreignProject]);
    expect(Object.keys(theirs.working_time)).toEqual([String(foreigner)]);
    expect(theirs.leaves.map((item) => item.user_id)).toEqual([foreigner]);
    expect(theirs.labels.map((label) => label.id)).toEqual([foreignLabel]);
  });

  it('answers the people of a team, of a position or of the whole company, and a revision any change moves', async () => {
    const team = await idOf(call('POST', '/teams', { name: 'Look-up team' }));
    expect((await call('POST', `/teams/${team}/users`, { user_ids: [worker] })).statusCode).toBe(201);
    const position = await idOf(call('POST', '/positions', { name: 'Look-up position' }));
    expect((await call('PUT', `/users/${worker}`, { user_position_id: position })).statusCode).toBe(200);

    const ofTeam = (await lookups(`?team_id=${team}&from=${from}&to=${to}`)).json<
      Lookups & { people: number[] }
    >();
    expect(ofTeam.people).toEqual([worker]);
    expect(ofTeam.users.map((user) => user.id)).toEqual([worker]);
    expect(Object.keys(ofTeam.working_time)).toEqual([String(worker)]);
    const ofPosition = (await lookups(`?position_id=${position}`)).json<{ people: number[] }>();
    expect(ofPosition.people).toEqual([worker]);
    const everyone = (await lookups('?all_users=true')).json<{
      people: number[];
      people_truncated: boolean;
    }>();
    // Every current person: the deleted colleague is not among them.
    expect(everyone.people).toContain(worker);
    expect(everyone.people).not.toContain(colleague);
    expect(everyone.people_truncated).toBe(false);
    // Within user_ids when both are given; another company's team answers nobody.
    expect(
      (await lookups(`?team_id=${team}&user_ids=${clientUser}`)).json<{ people: number[] }>().people,
    ).toEqual([]);
    expect((await lookups(`?team_id=${team}`, asB())).json<{ people: number[] }>().people).toEqual([]);

    const before = (await lookups(`?user_ids=${worker}`)).json<{ revision: string }>().revision;
    expect((await lookups(`?user_ids=${worker}`)).json<{ revision: string }>().revision).toBe(before);
    expect((await call('PUT', `/working-time/users/${worker}`, { entries: week })).statusCode).toBe(200);
    const after = (await lookups(`?user_ids=${worker}`)).json<{ revision: string }>().revision;
    expect(BigInt(after)).toBeGreaterThan(BigInt(before));
  });

  it('answers no leaves without a period, and refuses half a period', async () => {
    const withoutPeriod = await lookups(`?user_ids=${worker}`);
    const onlyFrom = await lookups(`?user_ids=${worker}&from=${from}`);
    const onlyTo = await lookups(`?user_ids=${worker}&to=${to}`);

    expect(withoutPeriod.statusCode).toBe(200);
    expect(withoutPeriod.json<Lookups>().leaves).toEqual([]);
    expect(withoutPeriod.json<Lookups>().users.map((user) => user.id)).toEqual([worker]);
    expect(onlyFrom.statusCode).toBe(400);
    expect(onlyFrom.json()).toMatchObject({ status: 400, name: 'PlatformCustomError' });
    expect(fieldsOf(onlyFrom)).toEqual(['to']);
    expect(onlyTo.statusCode).toBe(400);
    expect(fieldsOf(onlyTo)).toEqual(['to']);
  });

  const idsUpTo = (count: number) => Array.from({ length: count }, (_, index) => index + 1).join(',');

  it.each([
    ['user_ids=abc', 'user_ids=abc', 'user_ids'],
    ['user_ids=0', 'user_ids=0', 'user_ids'],
    ['user_ids=1,,2', 'user_ids=1,,2', 'user_ids'],
    ['501 user ids', `user_ids=${idsUpTo(501)}`, 'user_ids'],
    ['user_ids given twice', 'user_ids=1&user_ids=2', 'user_ids'],
    ['project_ids=-3', 'project_ids=-3', 'project_ids'],
    ['project_ids=2147483648', 'project_ids=2147483648', 'project_ids'],
    ['to=31-01-2027', 'user_ids=1&from=2027-01-01&to=31-01-2027', 'to'],
    ['a period ending before it starts, without users', 'from=2027-01-31&to=2027-01-01', 'to'],
    ['a day that does not exist, without users', 'project_ids=1&from=2027-02-30&to=2027-03-01', 'to'],
  ])('refuses %s with 400 and the validation body', async (_case, query, field) => {
    const response = await lookups(`?${query}`);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 400,
      name: 'PlatformCustomError',
      code: 'AC002',
      message: expect.stringContaining(field),
      errors: [{ field, validation: expect.any(String), message: expect.stringContaining(field) }],
    });
  });

  it('accepts exactly 500 ids', async () => {
    const response = await lookups(`?user_ids=${idsUpTo(500)}&project_ids=${idsUpTo(500)}`);

    expect(response.statusCode).toBe(200);
    expect(response.json<Lookups>().users.map((user) => user.id)).toContain(worker);
  });

  it('answers 403 to a role 6 (Client) user and 401 without a token', async () => {
    const asClient = await lookups(`?user_ids=${worker}&project_ids=${withClient}`, {
      role: 6,
      subject: `user:${clientUser}`,
    });
    const anonymous = await lookups(`?user_ids=${worker}`, { headers: { authorization: '' } });

    expect(asClient.statusCode).toBe(403);
    expect(asClient.json()).toMatchObject({ status: 403, name: 'PlatformCustomError' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 401, name: 'PlatformCustomError' });
  });

  it("answers each task's project, leaving out deleted tasks and another company's", async () => {
    const task = await idOf(call('POST', '/tasks', { project_id: withClient, name: 'Look me up' }));
    const gone = await idOf(call('POST', '/tasks', { project_id: withClient, name: 'Deleted' }));
    expect((await call('DELETE', `/tasks/${gone}`)).statusCode).toBe(200);
    const foreignTask = await idOf(
      app.call('POST', '/tasks', { project_id: foreignProject, name: 'Theirs' }, asB()),
    );

    const answer = await lookups(`?task_ids=${foreignTask},${gone},${task}`);

    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ tasks: unknown[] }>().tasks).toEqual([{ id: task, project_id: withClient }]);
  });

  it("answers positions and categories by id (not deleted ones, nor another company's) and user labels asked for", async () => {
    const creative = await idOf(call('POST', '/position-categories', { name: 'Creative' }));
    const closed = await idOf(call('POST', '/position-categories', { name: 'Closed' }));
    expect((await call('DELETE', `/position-categories/${closed}`)).statusCode).toBe(200);
    const designer = await idOf(call('POST', '/positions', { name: 'Designer', category_id: creative }));
    const writer = await idOf(call('POST', '/positions', { name: 'Writer' }));
    const retired = await idOf(call('POST', '/positions', { name: 'Retired' }));
    expect((await call('DELETE', `/positions/${retired}`)).statusCode).toBe(200);
    const theirs = await idOf(app.call('POST', '/positions', { name: 'Theirs' }, asB()));
    const theirCategory = await idOf(app.call('POST', '/position-categories', { name: 'Theirs' }, asB()));

    const answer = await lookups(
      `?position_ids=${writer},${designer},${retired},${theirs}&category_ids=${creative},${closed},${theirCategory}` +
        `&label_ids=${senior},${projectLabel},${foreignLabel}`,
    );

    expect(answer.statusCode).toBe(200);
    const body = answer.json<Lookups & { positions: unknown[]; categories: unknown[] }>();
    expect(body.positions).toEqual([
      { id: designer, name: 'Designer', category_id: creative },
      { id: writer, name: 'Writer', category_id: null },
    ]);
    expect(body.categories).toEqual([{ id: creative, name: 'Creative' }]);
    // Only the user label of the company: the project label and the other company's are left out.
    expect(body.labels.map((label) => label.id)).toEqual([senior]);
    expect(body.users).toEqual([]);
  });

  it('answers every part empty when no ids are asked for', async () => {
    const nothing = await lookups('');
    const periodOnly = await lookups(`?from=${from}&to=${to}`);

    expect(nothing.statusCode).toBe(200);
    expect(nothing.json()).toEqual({
      revision: expect.stringMatching(/^\d+$/),
      people: [],
      people_truncated: false,
      users: [],
      projects: [],
      working_time: {},
      schedules: {},
      leaves: [],
      labels: [],
      tasks: [],
      time_zones: {},
      holidays: [],
      positions: [],
      categories: [],
    });
    expect(periodOnly.statusCode).toBe(200);
    expect(periodOnly.json()).toEqual({
      revision: expect.stringMatching(/^\d+$/),
      people: [],
      people_truncated: false,
      users: [],
      projects: [],
      working_time: {},
      schedules: {},
      leaves: [],
      labels: [],
      tasks: [],
      time_zones: {},
      holidays: [],
      positions: [],
      categories: [],
    });
  });
});
