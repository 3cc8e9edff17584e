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
});
