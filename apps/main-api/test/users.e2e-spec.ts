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

  it('creates a user and answers the decisions §8 fields', async () => {
    const response = await call('POST', '/users', {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'Grace@UA.test',
      role_id: 3,
      password: 'a-long-enough-password',
      labels: [2, 5],
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
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
      labels: [2, 5],
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
