import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Detail {
  id: number;
  estimated_time: number;
  status: string;
  user_positions_header_id: number | null;
  usersPositionsProject: {
    user_positions_unified_id: number;
    estimated_hours: number;
    userPositionName: { name: string };
  }[];
}

describe('main-api projects (e2e)', () => {
  let app: MainApiTestApp;
  let clientId: number;
  let designer: number;
  let writer: number;
  let ratecardA: number;
  let ratecardB: number;
  let feeId: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['PA', 'PB']);
    clientId = (await app.call('POST', '/clients', { name: 'Client' })).json<{ id: number }>().id;
    designer = (await app.call('POST', '/positions', { name: 'Designer' })).json<{ id: number }>().id;
    writer = (await app.call('POST', '/positions', { name: 'Writer' })).json<{ id: number }>().id;
    ratecardA = (await app.call('POST', '/ratecards', { name: 'A' })).json<{ id: number }>().id;
    ratecardB = (await app.call('POST', '/ratecards', { name: 'B' })).json<{ id: number }>().id;
    feeId = (
      await app.call('POST', `/clients/${clientId}/fees`, { name: 'Retainer', estimate: 12000 })
    ).json<{ id: number }>().id;
  });

  afterAll(() => app.close());

  const createUser = async (body: object): Promise<number> =>
    (await app.call('POST', '/users', body)).json<{ id: number }>().id;
  const create = (body: object) =>
    app.call('POST', '/projects', { name: 'Campaign', client_id: clientId, ...body });

  it('creates a project estimated by positions; estimated_time is their sum', async () => {
    const response = await create({
      estimated_by_position: true,
      users_positions: [
        { id: designer, estimated_time: 40 },
        { id: writer, estimated_time: 25.5 },
      ],
      income_type: 'hourly_rate',
      ratecard_id: ratecardA,
      status: 'in_process',
      exchange: 1.08,
      currency_change_amount: 1000,
    });

    expect(response.statusCode).toBe(201);
    const project = response.json<Detail>();
    expect(project).toMatchObject({
      estimated_time: 65.5,
      status: 'active',
      user_positions_header_id: ratecardA,
      exchange: 1.08,
      currency_change_amount: 1000,
      client: { id: clientId, name: 'Client', client_status_id: 1 },
      ratecard: { id: ratecardA, name: 'A' },
    });
    expect(
      project.usersPositionsProject.map((line) => [
        line.user_positions_unified_id,
        line.estimated_hours,
        line.userPositionName.name,
      ]),
    ).toEqual([
      [designer, 40, 'Designer'],
      [writer, 25.5, 'Writer'],
    ]);
  });

  it('zeroes and removes a position absent from users_positions on update (no hours logged)', async () => {
    const { id } = (
      await create({
        estimated_by_position: true,
        users_positions: [
          { id: designer, estimated_time: 10 },
          { id: writer, estimated_time: 5 },
        ],
      })
    ).json<Detail>();

    const updated = (
      await app.call('PUT', `/projects/${id}`, { users_positions: [{ id: designer, estimated_time: 12 }] })
    ).json<Detail>();

    expect(updated.usersPositionsProject.map((line) => line.user_positions_unified_id)).toEqual([designer]);
    expect(updated.estimated_time).toBe(12);

    // Sent again, the removed line comes back with the estimate sent, not the old one.
    const restored = (
      await app.call('PUT', `/projects/${id}`, {
        users_positions: [
          { id: designer, estimated_time: 12 },
          { id: writer, estimated_time: 7 },
        ],
      })
    ).json<Detail>();

    expect(
      restored.usersPositionsProject
        .map((line) => [line.user_positions_unified_id, line.estimated_hours])
        .sort(([a], [b]) => a - b),
    ).toEqual(
      [
        [designer, 12],
        [writer, 7],
      ].sort(([a], [b]) => a - b),
    );
    expect(restored.estimated_time).toBe(19);
  });

  it('estimates by categories with estimation_by_categories: 1', async () => {
    const creative = (await app.call('POST', '/position-categories', { name: 'Creative' })).json<{
      id: number;
    }>().id;
    const accounts = (await app.call('POST', '/position-categories', { name: 'Accounts' })).json<{
      id: number;
    }>().id;

    const response = await create({
      estimation_by_categories: 1,
      categories: [
        { id: creative, estimated_time: 30 },
        { id: accounts, estimated_time: 12 },
      ],
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      estimation_by_categories: true,
      estimated_by_position: false,
      estimated_time: 42,
      categoriesProject: [
        { category_id: creative, estimated_hours: 30, hours_charged: 0, total_cost: 0 },
        { category_id: accounts, estimated_hours: 12, hours_charged: 0, total_cost: 0 },
      ],
    });
  });

  it("refuses, by field, another client's fee and another company's manager, ratecard and estimate lines", async () => {
    const asB = { company: app.companies[1].companyId };
    const otherClient = (await app.call('POST', '/clients', { name: 'Other' })).json<{ id: number }>().id;
    const otherClientsFee = (
      await app.call('POST', `/clients/${otherClient}/fees`, { name: 'Theirs', estimate: 1 })
    ).json<{ id: number }>().id;
    const foreignRatecard = (await app.call('POST', '/ratecards', { name: 'B' }, asB)).json<{ id: number }>()
      .id;
    const foreignPosition = (await app.call('POST', '/positions', { name: 'X' }, asB)).json<{ id: number }>()
      .id;
    const refusal = async (body: object) => (await create(body)).json<{ errors: object[] }>().errors;

    expect(await refusal({ fee_id: otherClientsFee })).toEqual([
      {
        field: 'fee_id',
        validation: 'belongsToClient',
        message: `fee_id ${otherClientsFee} does not belong to client ${clientId}`,
      },
    ]);
    expect(await refusal({ pm_id: app.companies[1].userId })).toMatchObject([
      { field: 'pm_id', validation: 'exists' },
    ]);
    expect(await refusal({ ratecard_id: foreignRatecard })).toMatchObject([
      { field: 'ratecard_id', validation: 'exists' },
    ]);
    expect(await refusal({ user_positions_header_id: foreignRatecard })).toMatchObject([
      { field: 'user_positions_header_id', validation: 'exists' },
    ]);
    expect(
      await refusal({ users_positions: [{ id: designer }, { id: foreignPosition }, { id: 999999 }] }),
    ).toEqual([
      {
        field: 'users_positions',
        validation: 'exists',
        message: `users_positions: ${foreignPosition}, 999999 do not exist`,
      },
    ]);
    expect(await refusal({ categories: [{ id: 999999 }] })).toMatchObject([
      { field: 'categories', message: 'categories: 999999 do not exist' },
    ]);
    expect((await create({ fee_id: feeId, pm_id: app.companies[0].userId })).statusCode).toBe(201);
  });

  it('lets ratecard_id win over user_positions_header_id', async () => {
    const response = await create({ ratecard_id: ratecardB, user_positions_header_id: ratecardA });

    expect(response.json()).toMatchObject({ user_positions_header_id: ratecardB });
  });

  it.each([
    [{ estimated_by_position: true, estimation_by_categories: 1 }, 'Only one time-estimation mode'],
    [{ estimated_by_position: true, estimation_by_categories: true }, 'Only one time-estimation mode'],
    [{ income_type: 'fee' }, 'income_type fee needs fee_id'],
    [{ income_type: 'contract' }, 'income_type contract needs contract_id'],
    [{ income_type: 'one_time' }, 'income_type one_time needs estimated'],
    [{ income_type: 'hourly_rate' }, 'income_type hourly_rate needs a ratecard'],
  ])('answers 422 AC004 for %p', async (body, message) => {
    const response = await create(body);

    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      status: 422,
      code: 'AC004',
      message: expect.stringContaining(message),
    });
  });

  it('accepts the income types with what they need, and estimates their income from it', async () => {
    const fee = await create({ name: 'Fee income', income_type: 'fee', fee_id: feeId });
    const oneTime = await create({ name: 'One-time income', income_type: 'one_time', estimated: 25000 });

    expect(fee.statusCode).toBe(201);
    expect(oneTime.json()).toMatchObject({ estimated: 25000 });
    const figures = { elapsed_time: 0, estimated_profitability: expect.any(Number) };
    for (const [project, totalEstimated] of [
      [fee, 12000],
      [oneTime, 25000],
    ] as const) {
      const { id, name } = project.json<{ id: number; name: string }>();
      const detail = (await app.call('GET', `/projects/${id}`)).json();
      const listed = (
        await app.call('GET', `/projects?page=false&filters=${encodeURIComponent(JSON.stringify({ name }))}`)
      ).json<object[]>();

      expect(detail).toMatchObject({
        ...figures,
        total_estimated: totalEstimated,
        profitability_now: totalEstimated,
      });
      expect(listed).toEqual([expect.objectContaining({ id, total_estimated: totalEstimated })]);
    }
  });

  it.each([
    [{ status: 'paused' }, 'status'],
    [{ health: 5 }, 'health'],
    [{ estimation_by_categories: 2 }, 'estimation_by_categories'],
    [{ users_positions: [{ id: 999999 }] }, 'users_positions'],
    [{ start: '2026-05-01', end: '2026-04-01' }, 'end'],
    [{ client_id: 999999 }, 'client_id'],
  ])('refuses %p naming %s', async (body, field) => {
    const response = await create(body);

    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toContain(field);
  });

  it('refuses an estimate list naming an id twice, and writes nothing of the body', async () => {
    const category = (await app.call('POST', '/position-categories', { name: 'Twice' })).json<{
      id: number;
    }>().id;
    const { id } = (await create({ name: 'Before duplicates' })).json<Detail>();
    const unique = { validation: 'unique', message: 'each id at most once' };

    const created = await create({
      name: 'Duplicated lines',
      users_positions: [{ id: designer }, { id: writer }, { id: designer }],
    });
    const updated = await app.call('PUT', `/projects/${id}`, {
      name: 'Renamed',
      users_positions: [{ id: designer, estimated_time: 3 }],
      categories: [{ id: category }, { id: category }],
    });

    expect(created.statusCode).toBe(400);
    expect(created.json<{ errors: object[] }>().errors).toEqual([{ field: 'users_positions', ...unique }]);
    expect(updated.statusCode).toBe(400);
    expect(updated.json<{ errors: object[] }>().errors).toEqual([{ field: 'categories', ...unique }]);
    const named = (
      await app.call(
        'GET',
        `/projects?page=false&filters=${encodeURIComponent(JSON.stringify({ name: 'Duplicated lines' }))}`,
      )
    ).json();
    expect(named).toEqual([]);
    expect((await app.call('GET', `/projects/${id}`)).json()).toMatchObject({
      name: 'Before duplicates',
      usersPositionsProject: [],
    });
  });

  it('filters, with in_process as an alias of active, and searches by name', async () => {
    await create({ name: 'Autumn Launch', status: 'suspended' });

    const active = (
      await app.call('GET', `/projects?page=false&filters=${encodeURIComponent('{"status":"in_process"}')}`)
    ).json<{ status: string }[]>();
    const found = (await app.call('GET', '/projects/search-by-name/autumn')).json<
      { id: number; name: string }[]
    >();
    const badFilter = await app.call('GET', `/projects?filters=${encodeURIComponent('{"budget":1}')}`);

    expect(active.length).toBeGreaterThan(0);
    expect(active.every((project) => project.status === 'active')).toBe(true);
    expect(found.map((project) => project.name)).toEqual(['Autumn Launch']);
    expect(fieldsOf(badFilter)).toEqual(['filters.budget']);
    expect(fieldsOf(await app.call('GET', '/projects/search-by-name/%20%20'))).toEqual(['project_name']);
    const byIds = (
      await app.call(
        'GET',
        `/projects?page=false&filters=${encodeURIComponent(JSON.stringify({ id: [found[0].id] }))}`,
      )
    ).json<{ id: number }[]>();
    expect(byIds.map((project) => project.id)).toEqual([found[0].id]);
  });

  it("answers another company's project like a missing one, and keeps collaborators from writing", async () => {
    const { id } = (await create({})).json<Detail>();
    const intruder = { company: app.companies[1].companyId };

    expect((await app.call('GET', `/projects/${id}`, undefined, intruder)).statusCode).toBe(404);
    expect((await app.call('PUT', `/projects/${id}`, { name: 'x' }, intruder)).statusCode).toBe(404);
    expect((await app.call('GET', '/projects/search-by-name/Campaign', undefined, intruder)).json()).toEqual(
      [],
    );
    expect((await create({ name: 'By PM' })).statusCode).toBe(201);
    expect(
      (await app.call('POST', '/projects', { name: 'x', client_id: clientId }, { role: 4 })).statusCode,
    ).toBe(403);
  });

  it('shows role 6 (Client) users only the projects of their own client', async () => {
    const otherClient = (await app.call('POST', '/clients', { name: 'Other' })).json<{ id: number }>().id;
    const own = (await create({ name: 'Visible to the client' })).json<Detail>().id;
    const hidden = (
      await app.call('POST', '/projects', { name: 'Not theirs', client_id: otherClient })
    ).json<Detail>().id;
    const clientUser = await createUser({
      first_name: 'Cli',
      last_name: 'Ent',
      email: 'client@pa.test',
      role_id: 6,
      client_id: clientId,
    });
    const asClient = { role: 6, subject: `user:${clientUser}` };

    const list = (await app.call('GET', '/projects?page=false', undefined, asClient)).json<
      { id: number; client_id: number }[]
    >();

    expect(list.length).toBeGreaterThan(0);
    expect(list.every((project) => project.client_id === clientId)).toBe(true);
    expect((await app.call('GET', `/projects/${own}`, undefined, asClient)).statusCode).toBe(200);
    expect((await app.call('GET', `/projects/${hidden}`, undefined, asClient)).statusCode).toBe(404);
    expect(
      (await app.call('GET', '/projects?page=false', undefined, { role: 6, subject: 'client:1' })).json(),
    ).toEqual([]);
    expect((await app.call('GET', '/clients', undefined, asClient)).statusCode).toBe(403);
  });

  it('answers the ratecard object of the read shape', async () => {
    const ratecard = (
      await app.call('POST', '/ratecards', {
        name: 'Premium',
        original_name: 'Standard',
        percent: 120,
        linked_to_base_price: true,
      })
    ).json<{
      id: number;
    }>().id;

    const project = await create({ ratecard_id: ratecard });

    expect(project.json()).toMatchObject({
      ratecard: {
        id: ratecard,
        name: 'Premium',
        original_name: 'Standard',
        percent: 120,
        currency_id: 1,
        linked_to_base_price: true,
      },
    });
  });

  it('answers the client and project manager of the read shape in the detail and the list', async () => {
    const pm = await createUser({
      first_name: 'Pat',
      last_name: 'Manager',
      email: 'pat@pa.test',
      role_id: 3,
    });
    const id = (await create({ name: 'Managed', pm_id: pm })).json<Detail>().id;
    const expected = {
      client: { id: clientId, name: 'Client', client_status_id: 1 },
      pm: { id: pm, first_name: 'Pat', last_name: 'Manager', email: 'pat@pa.test', role_id: 3 },
    };

    const detail = (await app.call('GET', `/projects/${id}`)).json<Record<string, unknown>>();
    const listed = (
      await app.call('GET', `/projects?page=false&filters=${encodeURIComponent(JSON.stringify({ id }))}`)
    ).json<Record<string, unknown>[]>();

    expect(detail).toMatchObject(expected);
    expect(detail.pm).toEqual(expected.pm);
    expect(detail.client).toEqual(expected.client);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject(expected);
    expect(listed[0].pm).toEqual(expected.pm);
    expect(listed[0]).not.toHaveProperty('ratecard');

    // A deleted project manager is no longer shown.
    expect((await app.call('DELETE', `/users/${pm}`)).statusCode).toBe(200);
    expect((await app.call('GET', `/projects/${id}`)).json()).toMatchObject({ pm_id: pm, pm: null });
  });

  it('documents the detail: a nullable ratecard object, position names, and fields by type', async () => {
    const schemas = (await app.service.app.inject({ method: 'GET', url: '/docs-json' })).json<{
      components: { schemas: Record<string, Schema> };
    }>().components.schemas;
    const detail = schemas.ProjectDetailDto;
    const ratecard = schemas.ProjectRatecardDto;
    const position = schemas.ProjectPositionDto;
    const project = schemas.ProjectDto;

    expect(referenceOf(detail.properties?.ratecard)).toBe('#/components/schemas/ProjectRatecardDto');
    expect(isNullable(detail.properties?.ratecard)).toBe(true);
    expect(ratecard.required?.sort()).toEqual(
      ['currency_id', 'id', 'linked_to_base_price', 'name', 'original_name', 'percent'].sort(),
    );
    expect(ratecard.properties).toMatchObject({
      id: { type: 'integer' },
      name: { type: 'string' },
      original_name: { type: 'string' },
      percent: { type: 'number' },
      currency_id: { type: 'integer' },
      linked_to_base_price: { type: 'boolean' },
    });
    expect(referenceOf(position.properties?.userPositionName)).toBe(
      '#/components/schemas/ProjectPositionNameDto',
    );
    expect(schemas.ProjectPositionNameDto.required).toEqual(['name']);
    expect(isNullable(schemas.ProjectPositionNameDto.properties?.name)).toBe(true);
    expect(project.properties).toMatchObject({
      id: { type: 'integer' },
      health: { enum: [1, 2, 3, 4] },
      status: { enum: ['active', 'finished', 'suspended'] },
      created_at: { pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' },
    });
    expect(project.properties?.health.type).toBe('integer');
    expect(isNullable(project.properties?.pm_id)).toBe(true);
    expect(schemas.ProjectPmDto.properties?.role_id).toMatchObject({
      type: 'integer',
      enum: [1, 2, 3, 4, 5, 6],
    });
  });
});

interface Schema {
  type?: string | string[];
  nullable?: boolean;
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
}

/** The schema a property refers to, however the document version wraps a nullable reference. */
function referenceOf(schema: Schema | undefined): string | undefined {
  return schema?.$ref ?? [...(schema?.allOf ?? []), ...(schema?.oneOf ?? [])].find((part) => part.$ref)?.$ref;
}

/** `nullable: true` (OpenAPI 3.0) or `null` among the types (3.1). */
function isNullable(schema: Schema | undefined): boolean {
  return (
    schema?.nullable === true ||
    (Array.isArray(schema?.type) && schema.type.includes('null')) ||
    (schema?.oneOf ?? []).some((part) => part.type === 'null')
  );
}
