import type { LightMyRequestResponse } from 'fastify';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/**
 * Every id a write body names is looked up in the token's company before anything is written
 * (issue 33, "Foreign references are stored"). Company A owns one row of each kind; company B's token
 * names A's row in each id field of each create and update body and must get the 400 naming that
 * field that an unknown id gets, with no row added or changed anywhere.
 *
 * Row-level security alone does not stop this: a label list is an integer array (no foreign key can
 * hold it), a contract's ratecard has no foreign key, and PostgreSQL checks foreign keys without
 * row-level security, so only the services' look-ups keep another company's ids out.
 */
describe('main-api foreign references in write bodies (e2e)', () => {
  let app: MainApiTestApp;
  let asB: { company: number };

  /** Company A's rows, whose ids B's bodies name. */
  const a = {} as Record<
    | 'client'
    | 'brand'
    | 'product'
    | 'fee'
    | 'contract'
    | 'ratecard'
    | 'position'
    | 'category'
    | 'projectLabel'
    | 'userLabel'
    | 'user'
    | 'project'
    | 'task'
    | 'estimate',
    number
  >;
  /** Company B's own rows, so that the one foreign id is the only fault of each body. */
  const b = {} as Record<
    'client' | 'brand' | 'project' | 'user' | 'contract' | 'team' | 'task' | 'label' | 'ratecard',
    number
  >;

  const idOf = async (response: Promise<LightMyRequestResponse>): Promise<number> => {
    const answered = await response;
    expect(answered.statusCode).toBe(201);
    return answered.json<{ id: number }>().id;
  };

  beforeAll(async () => {
    app = await startMainApiTestApp(['RefOwner', 'RefIntruder']);
    asB = { company: app.companies[1].companyId };
    const asA = (method: 'POST', url: string, body: object) => idOf(app.call(method, url, body));
    const inB = (url: string, body: object) => idOf(app.call('POST', url, body, asB));

    a.client = await asA('POST', '/clients', { name: 'A client' });
    a.brand = await asA('POST', '/brands', { client_id: a.client, name: 'A brand' });
    a.product = await asA('POST', '/products', { client_id: a.client, brand_id: a.brand, name: 'A product' });
    a.fee = await asA('POST', `/clients/${a.client}/fees`, { name: 'A fee', estimate: 1 });
    a.contract = await asA('POST', '/contracts', { client_id: a.client, name: 'A contract' });
    a.ratecard = await asA('POST', '/ratecards', { name: 'A ratecard' });
    a.category = await asA('POST', '/position-categories', { name: 'A category' });
    a.position = await asA('POST', '/positions', { name: 'A position', category_id: a.category });
    a.projectLabel = await asA('POST', '/labels', { name: 'A project label', model: 'project' });
    a.userLabel = await asA('POST', '/labels', { name: 'A user label', model: 'user' });
    a.user = await asA('POST', '/users', {
      first_name: 'A',
      last_name: 'U',
      email: 'a@ref.test',
      role_id: 4,
    });
    a.project = await asA('POST', '/projects', { name: 'A project', client_id: a.client });
    a.task = await asA('POST', '/tasks', { project_id: a.project, name: 'A task' });
    a.estimate = await asA('POST', `/projects/${a.project}/project_estimate`, {
      title: 'A line',
      cost: '1',
      datetime: '2026-03-15',
    });

    b.client = await inB('/clients', { name: 'B client' });
    b.brand = await inB('/brands', { client_id: b.client, name: 'B brand' });
    b.label = await inB('/labels', { name: 'B label', model: 'project' });
    b.ratecard = await inB('/ratecards', { name: 'B ratecard' });
    b.project = await inB('/projects', { name: 'B project', client_id: b.client, labels: [b.label] });
    b.user = await inB('/users', { first_name: 'B', last_name: 'U', email: 'b@ref.test', role_id: 4 });
    b.contract = await inB('/contracts', {
      client_id: b.client,
      name: 'B contract',
      user_positions_header_id: b.ratecard,
    });
    b.team = await inB('/teams', { name: 'B team' });
    b.task = await inB('/tasks', { project_id: b.project, name: 'B task' });
  });

  afterAll(() => app.close());

  /** The rows of every table a body above could write to, all companies together. */
  const rowCounts = async (): Promise<Record<string, number>> => {
    const tables = [
      'projects',
      'project_positions',
      'project_categories',
      'project_estimates',
      'project_costs',
      'users',
      'contracts',
      'contract_members',
      'teams',
      'team_members',
      'brands',
      'products',
      'positions',
      'ratecards',
      'ratecard_prices',
      'tasks',
      'time_entries',
      'user_leaves',
      'transactions',
      'labels',
    ];
    const rows = await app.dataSource.query<{ name: string; count: number }[]>(
      tables
        .map((table) => `SELECT '${table}' AS name, count(*)::int AS count FROM main_api.${table}`)
        .join(' UNION ALL '),
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.count]));
  };

  type Case = [
    description: string,
    method: 'POST' | 'PUT',
    url: () => string,
    body: () => object,
    field: string,
  ];

  /** The fields this issue found unchecked: each failed (201/200, foreign id kept) before the fix. */
  const fixed: Case[] = [
    [
      'POST /projects labels',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, labels: [a.projectLabel] }),
      'labels',
    ],
    [
      'PUT /projects/{id} labels',
      'PUT',
      () => `/projects/${b.project}`,
      () => ({ labels: [b.label, a.projectLabel] }),
      'labels',
    ],
    [
      'POST /users labels',
      'POST',
      () => '/users',
      () => ({
        first_name: 'F',
        last_name: 'L',
        email: 'labels@ref.test',
        role_id: 4,
        labels: [a.userLabel],
      }),
      'labels',
    ],
    ['PUT /users/{id} labels', 'PUT', () => `/users/${b.user}`, () => ({ labels: [a.userLabel] }), 'labels'],
    [
      'POST /contracts user_positions_header_id',
      'POST',
      () => '/contracts',
      () => ({ client_id: b.client, name: 'C', user_positions_header_id: a.ratecard }),
      'user_positions_header_id',
    ],
    [
      'PUT /contracts/{id} user_positions_header_id',
      'PUT',
      () => `/contracts/${b.contract}`,
      () => ({ user_positions_header_id: a.ratecard }),
      'user_positions_header_id',
    ],
  ];

  /** The id fields that were already checked: kept here so the whole audit stays proven. */
  const alreadyChecked: Case[] = [
    [
      'POST /projects client_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: a.client }),
      'client_id',
    ],
    [
      'POST /projects pm_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, pm_id: a.user }),
      'pm_id',
    ],
    [
      'POST /projects brand_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, brand_id: a.brand }),
      'brand_id',
    ],
    [
      'POST /projects product_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, product_id: a.product }),
      'product_id',
    ],
    [
      'POST /projects fee_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, fee_id: a.fee }),
      'fee_id',
    ],
    [
      'POST /projects contract_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, contract_id: a.contract }),
      'contract_id',
    ],
    [
      'POST /projects ratecard_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, ratecard_id: a.ratecard }),
      'ratecard_id',
    ],
    [
      'POST /projects user_positions_header_id',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, user_positions_header_id: a.ratecard }),
      'user_positions_header_id',
    ],
    [
      'POST /projects users_positions',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, users_positions: [{ id: a.position }] }),
      'users_positions',
    ],
    [
      'POST /projects categories',
      'POST',
      () => '/projects',
      () => ({ name: 'P', client_id: b.client, categories: [{ id: a.category }] }),
      'categories',
    ],
    [
      'PUT /projects/{id} client_id',
      'PUT',
      () => `/projects/${b.project}`,
      () => ({ client_id: a.client }),
      'client_id',
    ],
    [
      'POST /users user_position_id',
      'POST',
      () => '/users',
      () => ({
        first_name: 'F',
        last_name: 'L',
        email: 'pos@ref.test',
        role_id: 4,
        user_position_id: a.position,
      }),
      'user_position_id',
    ],
    [
      'POST /users client_id',
      'POST',
      () => '/users',
      () => ({ first_name: 'F', last_name: 'L', email: 'cli@ref.test', role_id: 6, client_id: a.client }),
      'client_id',
    ],
    [
      'PUT /users/{id} user_position_id',
      'PUT',
      () => `/users/${b.user}`,
      () => ({ user_position_id: a.position }),
      'user_position_id',
    ],
    [
      'POST /contracts client_id',
      'POST',
      () => '/contracts',
      () => ({ client_id: a.client, name: 'C' }),
      'client_id',
    ],
    [
      'PUT /contracts/{id} client_id',
      'PUT',
      () => `/contracts/${b.contract}`,
      () => ({ client_id: a.client }),
      'client_id',
    ],
    [
      'POST /contracts/{id}/users user_ids',
      'POST',
      () => `/contracts/${b.contract}/users`,
      () => ({ user_ids: [b.user, a.user] }),
      'user_ids',
    ],
    [
      'POST /teams/{id}/users user_ids',
      'POST',
      () => `/teams/${b.team}/users`,
      () => ({ user_ids: [b.user, a.user] }),
      'user_ids',
    ],
    [
      'POST /brands client_id',
      'POST',
      () => '/brands',
      () => ({ client_id: a.client, name: 'Br' }),
      'client_id',
    ],
    [
      'PUT /brands/{id} client_id',
      'PUT',
      () => `/brands/${b.brand}`,
      () => ({ client_id: a.client }),
      'client_id',
    ],
    [
      'POST /products client_id',
      'POST',
      () => '/products',
      () => ({ client_id: a.client, brand_id: b.brand, name: 'Pr' }),
      'client_id',
    ],
    [
      'POST /products brand_id',
      'POST',
      () => '/products',
      () => ({ client_id: b.client, brand_id: a.brand, name: 'Pr' }),
      'brand_id',
    ],
    [
      'POST /positions category_id',
      'POST',
      () => '/positions',
      () => ({ name: 'Po', category_id: a.category }),
      'category_id',
    ],
    [
      'POST /ratecards prices[].position_id',
      'POST',
      () => '/ratecards',
      () => ({ name: 'R', prices: [{ position_id: a.position, price: 10 }] }),
      'prices',
    ],
    [
      'POST /tasks project_id',
      'POST',
      () => '/tasks',
      () => ({ project_id: a.project, name: 'T' }),
      'project_id',
    ],
    [
      'POST /tasks assignee_id',
      'POST',
      () => '/tasks',
      () => ({ project_id: b.project, name: 'T', assignee_id: a.user }),
      'assignee_id',
    ],
    [
      'PUT /tasks/{id} assignee_id',
      'PUT',
      () => `/tasks/${b.task}`,
      () => ({ assignee_id: a.user }),
      'assignee_id',
    ],
    [
      'POST /hours user_id',
      'POST',
      () => '/hours',
      () => ({ user_id: a.user, project_id: b.project, date: '2026-11-20', hours: 1 }),
      'user_id',
    ],
    [
      'POST /hours project_id',
      'POST',
      () => '/hours',
      () => ({ user_id: b.user, project_id: a.project, date: '2026-11-20', hours: 1 }),
      'project_id',
    ],
    [
      'POST /hours user_position_id',
      'POST',
      () => '/hours',
      () => ({
        user_id: b.user,
        project_id: b.project,
        user_position_id: a.position,
        date: '2026-11-20',
        hours: 1,
      }),
      'user_position_id',
    ],
    [
      'POST /hours task_id',
      'POST',
      () => '/hours',
      () => ({ user_id: b.user, project_id: b.project, task_id: a.task, date: '2026-11-20', hours: 1 }),
      'task_id',
    ],
    [
      'POST /user/leaves userId',
      'POST',
      () => '/user/leaves',
      () => ({
        userId: a.user,
        leaveTypeId: 1,
        start: '2026-12-21T00:00:00Z',
        end: '2026-12-22T00:00:00Z',
        allDay: true,
      }),
      'userId',
    ],
    [
      'POST /transactions client_id',
      'POST',
      () => '/transactions',
      () => ({
        date: '2026-11-20',
        type: 'invoice',
        total: 1,
        currency_change_amount: 1,
        exchange: 1,
        source_id: 3,
        currency_id: 1,
        receipt_number: 'R',
        is_income: true,
        client_id: a.client,
        can_update: true,
        can_delete: false,
      }),
      'client_id',
    ],
    [
      'POST /projects/{id}/project_estimate fee_id',
      'POST',
      () => `/projects/${b.project}/project_estimate`,
      () => ({ title: 'L', cost: '1', datetime: '2026-03-15', fee_id: a.fee }),
      'fee_id',
    ],
    [
      'POST /projects/{id}/project_cost label_id',
      'POST',
      () => `/projects/${b.project}/project_cost`,
      () => ({ title: 'C', cost: 1, datetime: '2026-03-15', label_id: a.projectLabel }),
      'label_id',
    ],
    [
      'POST /projects/{id}/project_cost project_estimate_id',
      'POST',
      () => `/projects/${b.project}/project_cost`,
      () => ({ title: 'C', cost: 1, datetime: '2026-03-15', project_estimate_id: a.estimate }),
      'project_estimate_id',
    ],
  ];

  it.each([...fixed, ...alreadyChecked])(
    "%s: company A's id with company B's token is a 400 naming the field, and nothing is stored",
    async (_description, method, url, body, field) => {
      const readBack = method === 'PUT' ? () => app.call('GET', url(), undefined, asB) : undefined;
      const before = { rows: await rowCounts(), entity: (await readBack?.())?.json<unknown>() };

      const response = await app.call(method, url(), body(), asB);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 400,
        code: 'AC002',
        errors: [{ field, validation: 'exists' }],
      });
      expect(await rowCounts()).toEqual(before.rows);
      if (readBack) {
        expect((await readBack()).json()).toEqual(before.entity);
      }
    },
  );

  it("names exactly the foreign labels, and takes the company's own ones", async () => {
    const refused = await app.call(
      'POST',
      '/users',
      { first_name: 'F', last_name: 'L', email: 'mixed@ref.test', role_id: 4, labels: [a.userLabel, 999999] },
      asB,
    );
    const taken = await app.call('PUT', `/projects/${b.project}`, { labels: [b.label] }, asB);

    expect(refused.json()).toMatchObject({
      errors: [
        { field: 'labels', validation: 'exists', message: `labels ${a.userLabel}, 999999 do not exist` },
      ],
    });
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toMatchObject({ labels: [b.label] });
  });

  it('keeps a label deleted since it was put on a row, but refuses to add a deleted one', async () => {
    const kept = await idOf(app.call('POST', '/labels', { name: 'Kept', model: 'project' }, asB));
    const gone = await idOf(app.call('POST', '/labels', { name: 'Gone', model: 'project' }, asB));
    expect((await app.call('PUT', `/projects/${b.project}`, { labels: [kept] }, asB)).statusCode).toBe(200);
    await app.call('DELETE', `/labels/${kept}`, undefined, asB);
    await app.call('DELETE', `/labels/${gone}`, undefined, asB);

    // A client sending back the labels it read is not refused for one deleted meanwhile.
    const sentBack = await app.call(
      'PUT',
      `/projects/${b.project}`,
      { labels: [kept], name: 'Renamed' },
      asB,
    );
    const added = await app.call('PUT', `/projects/${b.project}`, { labels: [kept, gone] }, asB);

    expect(sentBack.statusCode).toBe(200);
    expect(sentBack.json()).toMatchObject({ labels: [kept], name: 'Renamed' });
    expect(added.json()).toMatchObject({
      errors: [{ field: 'labels', message: `labels ${gone} do not exist` }],
    });
  });

  it("takes the company's own ratecard on a contract, and null to clear it", async () => {
    const set = await app.call(
      'PUT',
      `/contracts/${b.contract}`,
      { user_positions_header_id: b.ratecard },
      asB,
    );
    const cleared = await app.call(
      'PUT',
      `/contracts/${b.contract}`,
      { user_positions_header_id: null },
      asB,
    );

    expect(set.json()).toMatchObject({ user_positions_header_id: b.ratecard });
    expect(cleared.json()).toMatchObject({ user_positions_header_id: null });
  });
});
