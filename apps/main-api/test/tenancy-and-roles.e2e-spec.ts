import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/**
 * For every main-api collection: another company's ids answer exactly like missing ones (404 AC003
 * on read, update and delete), and roles below Director cannot write it (403 AC006).
 */
describe('main-api tenancy and roles across collections (e2e)', () => {
  let app: MainApiTestApp;
  let owner: number;
  let ownerClient: number;
  let ownerBrand: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Owner', 'Intruder']);
    owner = app.companies[0].companyId;
    ownerClient = (await app.call('POST', '/clients', { name: 'Owned client' })).json<{ id: number }>().id;
    ownerBrand = (await app.call('POST', '/brands', { client_id: ownerClient, name: 'Owned brand' })).json<{
      id: number;
    }>().id;
  });

  afterAll(() => app.close());

  const bodies: Record<string, () => object> = {
    clients: () => ({ name: 'Owned' }),
    brands: () => ({ client_id: ownerClient, name: 'Owned' }),
    products: () => ({ client_id: ownerClient, brand_id: ownerBrand, name: 'Owned' }),
    users: () => ({
      first_name: 'O',
      last_name: 'W',
      email: `owned.${Date.now()}.${Math.random()}@owner.test`,
      role_id: 4,
    }),
    positions: () => ({ name: 'Owned' }),
    'position-categories': () => ({ name: 'Owned' }),
    teams: () => ({ name: 'Owned' }),
    workspaces: () => ({ name: 'Owned' }),
    contracts: () => ({ client_id: ownerClient, name: 'Owned' }),
    ratecards: () => ({ name: 'Owned' }),
    labels: () => ({ name: 'Owned', model: 'project' }),
  };

  it.each(Object.keys(bodies))(
    "%s: another company's id answers 404 on read, update and delete",
    async (collection) => {
      const created = await app.call('POST', `/${collection}`, bodies[collection](), { company: owner });
      expect(created.statusCode).toBe(201);
      const { id } = created.json<{ id: number }>();
      const intruder = { company: app.companies[1].companyId };

      for (const [method, body] of [['GET'], ['PUT', { name: 'Hijacked' }], ['DELETE']] as const) {
        const response = await app.call(method, `/${collection}/${id}`, body, intruder);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ status: 404, name: 'PlatformCustomError', code: 'AC003' });
      }
      expect((await app.call('GET', `/${collection}/${id}`)).statusCode).toBe(200);
    },
  );

  it.each(Object.keys(bodies))('%s: a project manager may read but not write', async (collection) => {
    const write = await app.call('POST', `/${collection}`, bodies[collection](), { role: 3 });
    const read = await app.call('GET', `/${collection}`, undefined, { role: 3 });

    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'AC006' });
    expect(read.statusCode).toBe(200);
  });
});
