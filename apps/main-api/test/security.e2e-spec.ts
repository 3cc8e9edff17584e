import { signTestToken } from '@platform/testing';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api: request-level protections (e2e)', () => {
  let app: MainApiTestApp;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Guarded', 'Other'], { BODY_LIMIT_BYTES: '10000' });
  });

  afterAll(() => app.close());

  it('refuses a body over BODY_LIMIT_BYTES with 413 in its own error body, storing nothing', async () => {
    const response = await app.call('POST', '/clients', { name: 'x', address: 'a'.repeat(20_000) });

    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 413, name: 'PlatformCustomError' });
    const list = await app.call('GET', '/clients?page=false');
    expect(list.json<unknown[]>()).toHaveLength(0);
  });

  // Issue 20: ~3,000 levels in under 10 KB overflowed the stack of the walks after parsing (a 500).
  const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it.each([
    ['an authenticated route', '/v1/clients', {}],
    ['the unauthenticated token endpoint', '/v1/oauth/token?grant_type=client_credentials', {}],
  ])('answers a deeply nested JSON body on %s with 400, not a 500', async (_case, url) => {
    const response = await app.service.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${signTestToken({ keys: app.keys, companyId: app.companies[0].companyId })}`,
      },
      payload: `{"name":"x","deep":${'['.repeat(4_000)}${']'.repeat(4_000)}}`,
    });

    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('deeper than 32 levels');
  });

  it('accepts a body nested exactly 32 levels deep', async () => {
    const response = await app.service.app.inject({
      method: 'POST',
      url: '/v1/clients',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${signTestToken({ keys: app.keys, companyId: app.companies[0].companyId })}`,
      },
      payload: `{"name":"Shallow enough","extra":${nested(31)}}`,
    });

    expect(response.statusCode).toBe(201);
  });

  it('ignores fields a client may not set (mass assignment): ids, timestamps, deletion', async () => {
    const response = await app.call('POST', '/clients', {
      name: 'Mass assigned',
      id: 999_999,
      created_at: '2000-01-01 00:00:00',
      deleted_at: '2000-01-01 00:00:00',
    });

    expect(response.statusCode).toBe(201);
    const client = response.json<{ id: number; created_at: string; deleted_at: string | null }>();
    expect(client.id).not.toBe(999_999);
    expect(client.deleted_at).toBeNull();
    expect(client.created_at.startsWith('2000')).toBe(false);
  });

  it("refuses a role_id or company_id that would lift a user into another company or role's reach", async () => {
    const other = app.companies[1]?.companyId ?? 2;
    const intoOtherCompany = await app.call('POST', '/users', {
      first_name: 'M',
      last_name: 'A',
      email: 'mass@guarded.test',
      role_id: 4,
      company_id: other,
    });
    // A real Director, logged in with the password grant: its token is the one main-api issued.
    const director = await app.call('POST', '/users', {
      first_name: 'D',
      last_name: 'R',
      email: 'director@guarded.test',
      role_id: 2,
      password: 'a-directors-long-password',
    });
    expect(director.statusCode).toBe(201);
    const login = await app.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&username=director%40guarded.test&password=a-directors-long-password',
    });
    const asDirector = (method: 'POST' | 'PUT', url: string, body: object) =>
      app.service.app.inject({
        method,
        url: `/v1${url}`,
        headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
        payload: body,
      });

    const cLevelByDirector = await asDirector('POST', '/users', {
      first_name: 'M',
      last_name: 'A',
      email: 'boss2@guarded.test',
      role_id: 1,
    });
    const selfPromotion = await asDirector('PUT', `/users/${director.json<{ id: number }>().id}`, {
      role_id: 1,
    });

    expect(intoOtherCompany.statusCode).toBe(403);
    expect(login.statusCode).toBe(200);
    expect(cLevelByDirector.json()).toEqual({
      status: 403,
      name: 'PlatformCustomError',
      code: 'AC006',
      message: 'Only a C-Level user can create, change or delete a C-Level user',
    });
    expect(selfPromotion.json()).toMatchObject({ status: 403, code: 'AC006' });
    expect((await app.call('GET', `/users/${director.json<{ id: number }>().id}`)).json()).toMatchObject({
      role_id: 2,
    });
  });

  it('caps page sizes and unpaged lists', async () => {
    expect((await app.call('GET', '/clients?perPage=501')).statusCode).toBe(400);
    expect((await app.call('GET', '/clients?perPage=500')).statusCode).toBe(200);
    // An offset beyond PostgreSQL's bigint once answered 500 (found by fuzzing).
    expect((await app.call('GET', '/clients?page=461168601842738800&perPage=50')).statusCode).toBe(400);
    expect((await app.call('GET', '/clients?page=1000000&perPage=500')).statusCode).toBe(200);
    expect(
      (await app.call('GET', `/users?ids=${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}`))
        .statusCode,
    ).toBe(400);
  });
});
