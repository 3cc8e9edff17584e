import type { LightMyRequestResponse } from 'fastify';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface UserBody {
  id: number;
  email: string;
  is_deleted: boolean;
}

describe('main-api users (e2e)', () => {
  let app: MainApiTestApp;
  let companyA: number;
  let companyB: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['UA', 'UB']);
    [{ companyId: companyA }, { companyId: companyB }] = app.companies;
  });

  afterAll(() => app.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: object,
    company = companyA,
    role = 1,
  ) => app.call(method, url, body, { company, role });

  const createUser = async (email: string, company = companyA) =>
    (
      await call('POST', '/users', { first_name: 'F', last_name: 'L', email, role_id: 4 }, company)
    ).json<UserBody>();

  it('creates a user and answers the docs/spec/decisions.md §8 fields', async () => {
    const labels = [
      (await call('POST', '/labels', { name: 'Remote', model: 'user' })).json<{ id: number }>().id,
      (await call('POST', '/labels', { name: 'Senior', model: 'user' })).json<{ id: number }>().id,
    ];
    const response = await call('POST', '/users', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'Grace@UA.test',
      role_id: 3,
      password: 'a-long-enough-password',
      labels,
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      version: 1,
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@ua.test',
      role_id: 3,
      user_position_id: null,
      position_name: null,
      category_id: null,
      category_name: null,
      client_id: null,
      picture: '',
      hidden: false,
      is_deleted: false,
      labels,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(response.json()).not.toHaveProperty('password');
  });

  it('refuses a taken e-mail, whatever its case, with 422 AC004', async () => {
    await createUser('taken@ua.test');

    const again = await call('POST', '/users', {
      first_name: 'F',
      last_name: 'L',
      email: 'TAKEN@ua.test',
      role_id: 4,
    });

    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({
      status: 422,
      name: 'PlatformCustomError',
      code: 'AC004',
      message: 'A user with this e-mail already exists',
    });
  });

  it('answers a batch by ids in one call, deleted users flagged, other companies left out', async () => {
    const first = await createUser('one@ua.test');
    const second = await createUser('two@ua.test');
    const foreign = await createUser('three@ub.test', companyB);
    await call('DELETE', `/users/${second.id}`);

    const response = await call('GET', `/users?ids=${first.id},${second.id},${foreign.id},999999`);

    expect(response.statusCode).toBe(200);
    expect(response.json<UserBody[]>().map((user) => [user.id, user.is_deleted])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
  });

  it.each(['abc', '1,,2', '0', Array.from({ length: 501 }, (_, i) => i + 1).join(',')])(
    'refuses ids=%s',
    async (ids) => {
      const response = await call('GET', `/users?ids=${ids.slice(0, 3000)}`);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'ids' }] });
    },
  );

  it('filters the list by name and role', async () => {
    await call('POST', '/users', { first_name: 'Zed', last_name: 'Quill', email: 'zed@ua.test', role_id: 5 });

    const response = await call(
      'GET',
      `/users?page=false&filters=${encodeURIComponent('{"name":"zed q","role_id":5}')}`,
    );

    expect(response.json<UserBody[]>().map((user) => user.email)).toEqual(['zed@ua.test']);
  });

  it('updates and soft-deletes, after which the user cannot log in', async () => {
    const user = (
      await call('POST', '/users', {
        first_name: 'Lee',
        last_name: 'V',
        email: 'lee@ua.test',
        role_id: 4,
        password: 'lee-long-password',
      })
    ).json<UserBody>();

    const updated = await call('PUT', `/users/${user.id}`, { hidden: true, role_id: 5 });
    const deleted = await call('DELETE', `/users/${user.id}`);
    const login = await app.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&username=lee%40ua.test&password=lee-long-password',
    });

    expect(updated.json()).toMatchObject({ hidden: true, role_id: 5 });
    expect(deleted.json()).toMatchObject({ id: user.id, is_deleted: true });
    expect(login.statusCode).toBe(400);
  });

  it("gives a client user its company's client and refuses another company's client by field", async () => {
    const own = (await call('POST', '/clients', { name: 'Ours' })).json<{ id: number }>();
    const foreign = (await call('POST', '/clients', { name: 'Theirs' }, companyB)).json<{ id: number }>();
    const body = { first_name: 'C', last_name: 'U', role_id: 6 };

    const created = await call('POST', '/users', { ...body, email: 'cu@ua.test', client_id: own.id });
    const refused = await call('POST', '/users', { ...body, email: 'cx@ua.test', client_id: foreign.id });
    const moved = await call('PUT', `/users/${created.json<UserBody>().id}`, { client_id: foreign.id });

    expect(created.json()).toMatchObject({ client_id: own.id });
    expect(refused.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'client_id' }] });
    expect(moved.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'client_id' }] });
    expect((await call('GET', `/users/${created.json<UserBody>().id}`)).json()).toMatchObject({
      client_id: own.id,
    });
  });

  it('lets roles 1-2 manage users and 3-5 only read', async () => {
    expect(
      (
        await call(
          'POST',
          '/users',
          { first_name: 'F', last_name: 'L', email: 'pm@ua.test', role_id: 4 },
          companyA,
          3,
        )
      ).statusCode,
    ).toBe(403);
    expect((await call('GET', '/users', undefined, companyA, 5)).statusCode).toBe(200);
    expect((await call('GET', '/users', undefined, companyA, 6)).statusCode).toBe(403);
  });

  describe('role grants, with the tokens of real users (password grant)', () => {
    const ONLY_C_LEVEL = 'Only a C-Level user can create, change or delete a C-Level user';
    const DIRECTOR_PASSWORD = 'a-directors-long-password';
    let boss: number;
    let bossToken: string;
    let director: number;
    let directorToken: string;
    let directorRefresh: string;

    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    const tokensFor = async (username: string, password: string) => {
      const response = await app.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: FORM,
        payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ access_token: string; refresh_token: string }>();
    };
    const roleClaimOf = (token: string) =>
      (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { role_id: number })
        .role_id;
    const as = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) =>
      app.service.app.inject({
        method,
        url: `/v1${url}`,
        headers: { authorization: `Bearer ${token}` },
        ...(body ? { payload: body } : {}),
      });
    let emails = 0;
    const userBody = (roleId: number) => {
      emails += 1;
      return { first_name: 'G', last_name: 'R', email: `grant${emails}@ua.test`, role_id: roleId };
    };
    const stored = async (id: number) =>
      (await call('GET', `/users?ids=${id}`)).json<
        { role_id: number; last_name: string; is_deleted: boolean }[]
      >()[0];
    const expectRefused = (response: LightMyRequestResponse, message: string) => {
      expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
        status: 403,
        body: { status: 403, name: 'PlatformCustomError', code: 'AC006', message },
      });
    };

    beforeAll(async () => {
      boss = app.companies[0].userId;
      bossToken = (await tokensFor(app.companies[0].email, app.companies[0].password)).access_token;
      const created = await call('POST', '/users', {
        ...userBody(2),
        email: 'director@ua.test',
        password: DIRECTOR_PASSWORD,
      });
      expect(created.statusCode).toBe(201);
      director = created.json<UserBody>().id;
      ({ access_token: directorToken, refresh_token: directorRefresh } = await tokensFor(
        'director@ua.test',
        DIRECTOR_PASSWORD,
      ));
      expect(roleClaimOf(directorToken)).toBe(2);
    });

    it('refuses a Director its own promotion to C-Level; its refreshed token still says Director', async () => {
      const promoted = await as(directorToken, 'PUT', `/users/${director}`, { role_id: 1 });
      const refreshed = await app.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/refreshtoken',
        headers: FORM,
        payload: new URLSearchParams({ refresh_token: directorRefresh }).toString(),
      });

      expectRefused(promoted, 'You cannot change your own role');
      expect((await stored(director)).role_id).toBe(2);
      expect(refreshed.statusCode).toBe(200);
      expect(roleClaimOf(refreshed.json<{ access_token: string }>().access_token)).toBe(2);
    });

    it('refuses a Director a C-Level user, created or promoted, and stores nothing', async () => {
      const body = userBody(1);
      const createdCLevel = await as(directorToken, 'POST', '/users', body);
      const manager = await as(directorToken, 'POST', '/users', userBody(3));
      const promoted = await as(directorToken, 'PUT', `/users/${manager.json<UserBody>().id}`, {
        role_id: 1,
      });

      expectRefused(createdCLevel, ONLY_C_LEVEL);
      expectRefused(promoted, ONLY_C_LEVEL);
      const byEmail = await call(
        'GET',
        `/users?page=false&filters=${encodeURIComponent(JSON.stringify({ email: body.email }))}`,
      );
      expect(byEmail.json<unknown[]>()).toEqual([]);
      expect((await stored(manager.json<UserBody>().id)).role_id).toBe(3);
    });

    it('refuses a Director any change to, or the deletion of, the C-Level boss', async () => {
      expectRefused(await as(directorToken, 'PUT', `/users/${boss}`, { role_id: 2 }), ONLY_C_LEVEL);
      expectRefused(await as(directorToken, 'PUT', `/users/${boss}`, { last_name: 'Ousted' }), ONLY_C_LEVEL);
      expectRefused(await as(directorToken, 'DELETE', `/users/${boss}`), ONLY_C_LEVEL);

      expect(await stored(boss)).toMatchObject({ role_id: 1, last_name: 'Boss', is_deleted: false });
    });

    it('lets a Director create Directors and Project Managers, and edit its own other fields', async () => {
      const peer = await as(directorToken, 'POST', '/users', userBody(2));
      const manager = await as(directorToken, 'POST', '/users', userBody(3));
      const renamed = await as(directorToken, 'PUT', `/users/${director}`, {
        last_name: 'Renamed',
        role_id: 2,
      });

      expect([peer.statusCode, manager.statusCode, renamed.statusCode]).toEqual([201, 201, 200]);
      expect(peer.json()).toMatchObject({ role_id: 2 });
      expect(manager.json()).toMatchObject({ role_id: 3 });
      expect(renamed.json()).toMatchObject({ last_name: 'Renamed', role_id: 2 });
    });

    it('lets a C-Level create, promote, demote and delete C-Level users, but not change its own role', async () => {
      const second = await as(bossToken, 'POST', '/users', userBody(1));
      const manager = (await as(bossToken, 'POST', '/users', userBody(3))).json<UserBody>();
      const promoted = await as(bossToken, 'PUT', `/users/${manager.id}`, { role_id: 1 });
      const demoted = await as(bossToken, 'PUT', `/users/${second.json<UserBody>().id}`, { role_id: 2 });
      const deleted = await as(bossToken, 'DELETE', `/users/${manager.id}`);
      const renamed = await as(bossToken, 'PUT', `/users/${boss}`, { last_name: 'Boss' });

      expect(second.statusCode).toBe(201);
      expect(second.json()).toMatchObject({ role_id: 1 });
      expect(promoted.json()).toMatchObject({ role_id: 1 });
      expect(demoted.json()).toMatchObject({ role_id: 2 });
      expect(deleted.json()).toMatchObject({ id: manager.id, is_deleted: true });
      expect(renamed.statusCode).toBe(200);
      expectRefused(
        await as(bossToken, 'PUT', `/users/${boss}`, { role_id: 2 }),
        'You cannot change your own role',
      );
    });

    it('holds an API client of role 2 to the same ranks', async () => {
      const asClient = { company: companyA, role: 2, subject: 'client:1' };

      expectRefused(await app.call('POST', '/users', userBody(1), asClient), ONLY_C_LEVEL);
      expectRefused(await app.call('DELETE', `/users/${boss}`, undefined, asClient), ONLY_C_LEVEL);
      expect((await app.call('POST', '/users', userBody(2), asClient)).statusCode).toBe(201);
    });
  });

  describe('positions and categories', () => {
    it('gives users a position whose name and category they answer', async () => {
      const category = (await call('POST', '/position-categories', { name: 'Creative' })).json<{
        id: number;
      }>();
      const position = await call('POST', '/positions', { name: 'Art Director', category_id: category.id });
      const user = await call('POST', '/users', {
        first_name: 'Pos',
        last_name: 'Itioned',
        email: 'pos@ua.test',
        role_id: 4,
        user_position_id: position.json<{ id: number }>().id,
      });

      expect(position.statusCode).toBe(201);
      expect(position.json()).toMatchObject({
        name: 'Art Director',
        category_id: category.id,
        category_name: 'Creative',
      });
      expect(user.json()).toMatchObject({
        user_position_id: position.json<{ id: number }>().id,
        position_name: 'Art Director',
        category_id: category.id,
        category_name: 'Creative',
      });
      const batch = await call('GET', `/users?ids=${user.json<{ id: number }>().id}`);
      expect(batch.json()).toEqual([
        expect.objectContaining({ position_name: 'Art Director', category_name: 'Creative' }),
      ]);
    });

    it('moves a user to another position, answering the new one, and names it on deletion too', async () => {
      const positionId = async (name: string) =>
        (await call('POST', '/positions', { name })).json<{ id: number }>().id;
      const [before, after] = [await positionId('Copywriter'), await positionId('Editor')];
      const user = (
        await call('POST', '/users', {
          first_name: 'Mo',
          last_name: 'Ved',
          email: 'moved@ua.test',
          role_id: 4,
          user_position_id: before,
        })
      ).json<UserBody>();

      const moved = await call('PUT', `/users/${user.id}`, { user_position_id: after });
      const deleted = await call('DELETE', `/users/${user.id}`);

      expect(moved.json()).toMatchObject({ user_position_id: after, position_name: 'Editor' });
      expect((await call('GET', `/users?ids=${user.id}`)).json()).toEqual([
        expect.objectContaining({ user_position_id: after, position_name: 'Editor', is_deleted: true }),
      ]);
      expect(deleted.json()).toMatchObject({
        user_position_id: after,
        position_name: 'Editor',
        is_deleted: true,
      });
    });

    it("refuses another company's category or position by field", async () => {
      const foreignCategory = (
        await call('POST', '/position-categories', { name: 'Theirs' }, companyB)
      ).json<{ id: number }>();
      const foreignPosition = (await call('POST', '/positions', { name: 'Theirs' }, companyB)).json<{
        id: number;
      }>();

      const position = await call('POST', '/positions', { name: 'X', category_id: foreignCategory.id });
      const user = await call('POST', '/users', {
        first_name: 'F',
        last_name: 'L',
        email: 'fp@ua.test',
        role_id: 4,
        user_position_id: foreignPosition.id,
      });

      expect(position.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'category_id' }] });
      expect(user.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'user_position_id' }] });
    });

    it('lists positions filtered by category', async () => {
      const category = (await call('POST', '/position-categories', { name: 'Accounts' })).json<{
        id: number;
      }>();
      await call('POST', '/positions', { name: 'Account Manager', category_id: category.id });

      const response = await call(
        'GET',
        `/positions?filters=${encodeURIComponent(JSON.stringify({ category_id: category.id }))}`,
      );

      expect(response.json()).toMatchObject({
        total: '1',
        data: [{ name: 'Account Manager', category_name: 'Accounts' }],
      });
    });
  });
});
