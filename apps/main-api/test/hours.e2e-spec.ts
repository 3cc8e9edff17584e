import { ProvisioningService } from '../src/provisioning/provisioning.service';
import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api hours (e2e)', () => {
  let app: MainApiTestApp;
  let clientId: number;
  let designer: number;
  let writer: number;
  let worker: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['HA', 'HB']);
    clientId = (await app.call('POST', '/clients', { name: 'C' })).json<{ id: number }>().id;
    designer = (await app.call('POST', '/positions', { name: 'Designer' })).json<{ id: number }>().id;
    writer = (await app.call('POST', '/positions', { name: 'Writer' })).json<{ id: number }>().id;
    worker = (
      await new ProvisioningService(app.dataSource).addUser({
        companyId: app.companies[0].companyId,
        email: 'w@ha.test',
        firstName: 'W',
        lastName: 'K',
        roleId: 4,
      })
    ).userId;
  });

  afterAll(() => app.close());

  const project = async () =>
    (
      await app.call('POST', '/projects', {
        name: 'P',
        client_id: clientId,
        estimated_by_position: true,
        users_positions: [
          { id: designer, estimated_time: 10 },
          { id: writer, estimated_time: 5 },
        ],
      })
    ).json<{ id: number }>().id;

  it('logs hours and lists them by project', async () => {
    const projectId = await project();

    const logged = await app.call('POST', '/hours', {
      user_id: worker,
      project_id: projectId,
      user_position_id: designer,
      date: '2026-11-20',
      hours: 3.5,
    });
    const list = await app.call(
      'GET',
      `/hours?page=false&filters=${encodeURIComponent(JSON.stringify({ project_id: projectId }))}`,
    );

    expect(logged.statusCode).toBe(201);
    expect(logged.json()).toMatchObject({
      user_id: worker,
      project_id: projectId,
      user_position_id: designer,
      date: '2026-11-20',
      hours: 3.5,
    });
    expect(list.json()).toHaveLength(1);
  });

  it('keeps an absent position that has logged hours (estimate 0), removes one without', async () => {
    const projectId = await project();
    await app.call('POST', '/hours', {
      user_id: worker,
      project_id: projectId,
      user_position_id: writer,
      date: '2026-11-20',
      hours: 2,
    });

    const updated = await app.call('PUT', `/projects/${projectId}`, { users_positions: [] });

    expect(updated.json<{ usersPositionsProject: unknown[] }>().usersPositionsProject).toEqual([
      expect.objectContaining({ user_positions_unified_id: writer, estimated_hours: 0 }),
    ]);
  });

  it.each([
    [{ hours: 0 }, 'hours'],
    [{ hours: 25 }, 'hours'],
    [{ date: '2026-02-30' }, 'date'],
    [{ user_id: 999999 }, 'user_id'],
  ])('refuses %p naming %s', async (override, field) => {
    const projectId = await project();

    const response = await app.call('POST', '/hours', {
      user_id: worker,
      project_id: projectId,
      date: '2026-11-20',
      hours: 1,
      ...override,
    });

    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toContain(field);
  });

  it('lets collaborators log only their own hours', async () => {
    const projectId = await project();
    const body = { user_id: worker, project_id: projectId, date: '2026-11-21', hours: 1 };

    expect((await app.call('POST', '/hours', body, { role: 4, subject: `user:${worker}` })).statusCode).toBe(
      201,
    );
    expect((await app.call('POST', '/hours', body, { role: 4, subject: 'user:999' })).statusCode).toBe(403);
  });

  it('reads back the profitability figures of an hourly-rate project estimated by positions', async () => {
    const ratecard = (
      await app.call('POST', '/ratecards', {
        name: 'Rates',
        prices: [
          { position_id: designer, price: 100 },
          { position_id: writer, price: 50 },
        ],
      })
    ).json<{ id: number }>().id;
    const projectId = (
      await app.call('POST', '/projects', {
        name: 'Billable',
        client_id: clientId,
        income_type: 'hourly_rate',
        ratecard_id: ratecard,
        estimated_by_position: true,
        users_positions: [
          { id: designer, estimated_time: 10 },
          { id: writer, estimated_time: 20 },
        ],
      })
    ).json<{ id: number }>().id;
    await app.call('POST', '/hours', {
      user_id: worker,
      project_id: projectId,
      user_position_id: designer,
      date: '2026-11-20',
      hours: 4,
    });
    await app.call('POST', '/hours', {
      user_id: worker,
      project_id: projectId,
      user_position_id: writer,
      date: '2026-11-20',
      hours: 2,
    });
    await app.call('POST', `/projects/${projectId}/project_estimate`, {
      title: 'Print',
      cost: '300.00',
      datetime: '2026-11-01',
    });
    await app.call('POST', `/projects/${projectId}/project_cost`, {
      title: 'Print',
      cost: 120,
      datetime: '2026-11-21',
    });

    const project = (await app.call('GET', `/projects/${projectId}`)).json();
    const listed = (
      await app.call('GET', `/projects?page=false&filters=${encodeURIComponent('{"name":"Billable"}')}`)
    ).json();

    expect(listed).toEqual([
      expect.objectContaining({
        id: projectId,
        elapsed_time: 6,
        total_estimated: 2000,
        estimated_profitability: 1700,
        profitability_now: 380,
      }),
    ]);

    expect(project).toMatchObject({
      estimated_time: 30,
      elapsed_time: 6,
      total_estimated: 2000, // 10 h × 100 + 20 h × 50
      estimated_profitability: 1700, // 2000 − 300 budgeted
      profitability_now: 380, // 4 h × 100 + 2 h × 50 − 120 spent
      usersPositionsProject: [
        expect.objectContaining({ user_positions_unified_id: designer, hours_charged: 4, total_cost: 400 }),
        expect.objectContaining({ user_positions_unified_id: writer, hours_charged: 2, total_cost: 100 }),
      ],
    });
  });

  describe('PUT /hours/{id}', () => {
    const log = async (body: Record<string, unknown> = {}, options = {}) =>
      (
        await app.call(
          'POST',
          '/hours',
          { user_id: worker, project_id: await project(), date: '2026-11-20', hours: 3, ...body },
          options,
        )
      ).json<{ id: number; project_id: number; user_position_id: number | null }>();
    const task = async (projectId: number) =>
      (await app.call('POST', '/tasks', { project_id: projectId, name: 'Layout' })).json<{ id: number }>().id;

    it('changes every field it is sent and answers the entry as it is now', async () => {
      const entry = await log();
      const otherProject = await project();
      const otherTask = await task(otherProject);

      const response = await app.call('PUT', `/hours/${entry.id}`, {
        user_id: 1,
        project_id: otherProject,
        task_id: otherTask,
        user_position_id: writer,
        date: '2026-11-23',
        hours: 7.25,
      });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: entry.id,
        version: 2,
        user_id: 1,
        project_id: otherProject,
        task_id: otherTask,
        user_position_id: writer,
        date: '2026-11-23',
        hours: 7.25,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      });
      expect((await app.call('GET', `/hours/${entry.id}`)).json()).toEqual(response.json());
    });

    it('leaves the fields it is not sent as they were, and clears a task with null', async () => {
      const projectId = await project();
      const taskId = await task(projectId);
      const entry = await log({ project_id: projectId, task_id: taskId, user_position_id: designer });

      const partial = await app.call('PUT', `/hours/${entry.id}`, { hours: 1.5 });
      const cleared = await app.call('PUT', `/hours/${entry.id}`, { task_id: null });

      expect(partial.statusCode).toBe(200);
      expect(partial.json()).toMatchObject({
        user_id: worker,
        project_id: projectId,
        task_id: taskId,
        user_position_id: designer,
        date: '2026-11-20',
        hours: 1.5,
      });
      expect(cleared.json()).toMatchObject({ task_id: null, hours: 1.5, user_position_id: designer });
    });

    it("moves the project's logged hours with it", async () => {
      const projectId = await project();
      const entry = await log({ project_id: projectId, user_position_id: designer, hours: 4 });

      await app.call('PUT', `/hours/${entry.id}`, { hours: 6, user_position_id: writer });
      const detail = (await app.call('GET', `/projects/${projectId}`)).json<{
        elapsed_time: number;
        usersPositionsProject: { user_positions_unified_id: number; hours_charged: number }[];
      }>();

      expect(detail.elapsed_time).toBe(6);
      expect(detail.usersPositionsProject).toEqual([
        expect.objectContaining({ user_positions_unified_id: designer, hours_charged: 0 }),
        expect.objectContaining({ user_positions_unified_id: writer, hours_charged: 6 }),
      ]);
    });

    it.each([
      [{ hours: 0 }, 'hours'],
      [{ hours: 24.5 }, 'hours'],
      [{ hours: 1.005 }, 'hours'],
      [{ hours: null }, 'hours'],
      [{ hours: '2' }, 'hours'],
      [{ date: '2026-02-30' }, 'date'],
      [{ date: '20/11/2026' }, 'date'],
      [{ user_id: 999999 }, 'user_id'],
      [{ user_id: null }, 'user_id'],
      [{ project_id: 999999 }, 'project_id'],
      [{ user_position_id: 999999 }, 'user_position_id'],
      [{ task_id: 0 }, 'task_id'],
    ])('refuses %p with 400 naming %s, and changes nothing', async (body, field) => {
      const entry = await log();

      const response = await app.call('PUT', `/hours/${entry.id}`, body);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, name: 'PlatformCustomError', code: 'AC002' });
      expect(fieldsOf(response)).toContain(field);
      expect((await app.call('GET', `/hours/${entry.id}`)).json()).toMatchObject({
        hours: 3,
        date: '2026-11-20',
      });
    });

    it('refuses a task of another project, including a kept task when the entry changes project', async () => {
      const projectId = await project();
      const taskId = await task(projectId);
      const entry = await log({ project_id: projectId, task_id: taskId });
      const otherProject = await project();

      const foreignTask = await app.call('PUT', `/hours/${entry.id}`, { task_id: await task(otherProject) });
      const keptTask = await app.call('PUT', `/hours/${entry.id}`, { project_id: otherProject });
      const bothMoved = await app.call('PUT', `/hours/${entry.id}`, {
        project_id: otherProject,
        task_id: null,
      });

      expect(foreignTask.statusCode).toBe(400);
      expect(fieldsOf(foreignTask)).toEqual(['task_id']);
      expect(keptTask.statusCode).toBe(400);
      expect(fieldsOf(keptTask)).toEqual(['task_id']);
      expect(bothMoved.json()).toMatchObject({ project_id: otherProject, task_id: null });
    });

    it('answers 404 for an id that does not exist and 400 for one that is not an id', async () => {
      const missing = await app.call('PUT', '/hours/999999', { hours: 2 });

      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ status: 404, name: 'PlatformCustomError', code: 'AC003' });
      expect((await app.call('PUT', '/hours/abc', { hours: 2 })).statusCode).toBe(400);
    });

    it("answers another company's entry exactly as a missing one, and leaves it alone", async () => {
      const entry = await log();
      const other = { company: app.companies[1].companyId, subject: `user:${app.companies[1].userId}` };

      const response = await app.call('PUT', `/hours/${entry.id}`, { hours: 2 }, other);

      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'AC003' });
      expect((await app.call('GET', `/hours/${entry.id}`)).json()).toMatchObject({ hours: 3 });
    });

    it('lets roles 1-3 correct anyone, roles 4-5 only their own entries, and role 6 nothing', async () => {
      const own = await log();
      const others = await log({ user_id: 1 });
      const asWorker = (role: number) => ({ role, subject: `user:${worker}` });

      for (const role of [2, 3]) {
        expect((await app.call('PUT', `/hours/${own.id}`, { hours: role }, { role })).statusCode).toBe(200);
      }
      for (const role of [4, 5]) {
        expect((await app.call('PUT', `/hours/${own.id}`, { hours: role }, asWorker(role))).statusCode).toBe(
          200,
        );
        const foreign = await app.call('PUT', `/hours/${others.id}`, { hours: 1 }, asWorker(role));
        expect(foreign.statusCode).toBe(403);
        expect(foreign.json()).toMatchObject({ code: 'AC006' });
        expect((await app.call('PUT', `/hours/${own.id}`, { user_id: 1 }, asWorker(role))).statusCode).toBe(
          403,
        );
      }
      expect((await app.call('PUT', `/hours/${own.id}`, { hours: 1 }, { role: 6 })).statusCode).toBe(403);
      expect((await app.call('GET', `/hours/${own.id}`)).json()).toMatchObject({ hours: 5, user_id: worker });
      expect((await app.call('GET', `/hours/${others.id}`)).json()).toMatchObject({ hours: 3, user_id: 1 });
    });

    it('needs a token', async () => {
      const entry = await log();

      const response = await app.service.app.inject({
        method: 'PUT',
        url: `/v1/hours/${entry.id}`,
        payload: { hours: 2 },
      });

      expect(response.statusCode).toBe(401);
    });

    it('is documented with its body, the entry it answers and its errors', async () => {
      const document = (await app.service.app.inject({ method: 'GET', url: '/docs-json' })).json<{
        paths: Record<string, Record<string, OpenApiOperation>>;
        components: {
          schemas: Record<
            string,
            { required?: string[]; properties: Record<string, Record<string, unknown>> }
          >;
        };
      }>();
      const operation = document.paths['/v1/hours/{id}']?.put;
      const body = document.components.schemas.UpdateTimeEntryDto;
      const entry = document.components.schemas.TimeEntryDto;

      expect(operation?.requestBody?.content['application/json'].schema.$ref).toBe(
        '#/components/schemas/UpdateTimeEntryDto',
      );
      expect(operation?.responses['200'].content?.['application/json'].schema.$ref).toBe(
        '#/components/schemas/TimeEntryDto',
      );
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['400', '403', '404']));
      expect(body.required ?? []).toEqual([]);
      expect(Object.keys(body.properties).sort()).toEqual(
        ['date', 'hours', 'project_id', 'task_id', 'user_id', 'user_position_id'].sort(),
      );
      expect(entry.properties.id).toMatchObject({ type: 'integer' });
      expect(entry.properties.date).toMatchObject({ format: 'date' });
      expect(entry.properties.created_at).toMatchObject({
        pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
      });
      for (const nullable of ['task_id', 'user_position_id']) {
        expect(isNullableInteger(entry.properties[nullable])).toBe(true);
        expect(isNullableInteger(body.properties[nullable])).toBe(true);
      }
    });
  });
});

interface OpenApiOperation {
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}

/** `type: integer, nullable: true` (OpenAPI 3.0) or `type: [integer, null]` (3.1). */
function isNullableInteger(schema: Record<string, unknown> | undefined): boolean {
  const type = schema?.type;
  return Array.isArray(type)
    ? type.includes('integer') && type.includes('null')
    : type === 'integer' && schema?.nullable === true;
}
