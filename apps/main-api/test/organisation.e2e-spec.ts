import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api workspaces and teams (e2e)', () => {
  let app: MainApiTestApp;
  let companyA: number;
  let companyB: number;
  let member: number;
  let foreigner: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['OA', 'OB']);
    [{ companyId: companyA, userId: member }, { companyId: companyB, userId: foreigner }] = app.companies;
  });

  afterAll(() => app.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object, company = companyA) =>
    app.call(method, url, body, { company });

  it('creates a workspace with the docs/spec/interfaces.md response fields, active by default', async () => {
    const response = await call('POST', '/workspaces', { name: 'Studio', description: 'Main office' });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      version: 1,
      name: 'Studio',
      active: true,
      description: 'Main office',
      company_id: companyA,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const updated = await call('PUT', `/workspaces/${response.json<{ id: number }>().id}`, { active: false });
    expect(updated.json()).toMatchObject({ active: false, name: 'Studio' });
    expect(
      (await call('GET', `/workspaces/${response.json<{ id: number }>().id}`, undefined, companyB))
        .statusCode,
    ).toBe(404);
  });

  it('adds and removes team members, once each, from the own company only', async () => {
    const team = (await call('POST', '/teams', { name: 'Pod' })).json<{ id: number; user_ids: number[] }>();

    const added = await call('POST', `/teams/${team.id}/users`, { user_ids: [member, member] });
    const again = await call('POST', `/teams/${team.id}/users`, { user_ids: [member] });
    const foreign = await call('POST', `/teams/${team.id}/users`, { user_ids: [foreigner] });
    const removed = await call('DELETE', `/teams/${team.id}/users`, { user_ids: [member] });

    expect(team.user_ids).toEqual([]);
    expect(added.json()).toMatchObject({ user_ids: [member] });
    expect(again.json()).toMatchObject({ user_ids: [member] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'user_ids' }] });
    expect(removed.json()).toMatchObject({ user_ids: [] });
  });

  it('refuses an empty user_ids and a missing team', async () => {
    const team = (await call('POST', '/teams', { name: 'Empty' })).json<{ id: number }>();

    expect((await call('POST', `/teams/${team.id}/users`, { user_ids: [] })).statusCode).toBe(400);
    expect((await call('POST', '/teams/999999/users', { user_ids: [member] })).statusCode).toBe(404);
  });

  it('renames a team keeping its members, and answers a deleted team with them', async () => {
    const team = (await call('POST', '/teams', { name: 'Crew' })).json<{ id: number }>();
    await call('POST', `/teams/${team.id}/users`, { user_ids: [member] });

    const renamed = await call('PUT', `/teams/${team.id}`, { name: 'Crew 2', description: 'Night shift' });
    const deleted = await call('DELETE', `/teams/${team.id}`);

    expect(renamed.json()).toMatchObject({ name: 'Crew 2', description: 'Night shift', user_ids: [member] });
    expect(deleted.json()).toMatchObject({ id: team.id, name: 'Crew 2', user_ids: [member] });
  });

  it('soft-deletes a team and answers it', async () => {
    const team = (await call('POST', '/teams', { name: 'Gone' })).json<{ id: number }>();

    const deleted = await call('DELETE', `/teams/${team.id}`);

    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ id: team.id, name: 'Gone' });
    expect((await call('GET', `/teams/${team.id}`)).statusCode).toBe(404);
  });
});
