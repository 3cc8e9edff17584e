import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Page<T> {
  total: string;
  perPage: number;
  page: number;
  lastPage: number;
  data: T[];
}

describe('main-api clients, brands, products, reference data (e2e)', () => {
  let app: MainApiTestApp;
  let companyA: number;
  let companyB: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['CA', 'CB']);
    [{ companyId: companyA }, { companyId: companyB }] = app.companies;
  });

  afterAll(() => app.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { body?: object; company?: number; role?: number } = {},
  ) => app.call(method, url, options.body, { company: options.company ?? companyA, role: options.role });

  describe('clients', () => {
    it('creates a client and answers it field by field', async () => {
      const response = await call('POST', '/clients', {
        body: { name: 'Northwind', email: 'mk@northwind.test', currency_id: 2, unknown_field: 'stripped' },
      });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        version: 1,
        company_id: companyA,
        name: 'Northwind',
        email: 'mk@northwind.test',
        phone: null,
        address: null,
        tax_id: null,
        currency_id: 2,
        archived: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        deleted_at: null,
      });
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'X', email: 'not-an-email' }, 'email'],
      [{ name: 'X', currency_id: 11 }, 'currency_id'],
      [{ name: 'X', archived: 'yes' }, 'archived'],
    ])('refuses %p with AC002 naming %s', async (body, field) => {
      const response = await call('POST', '/clients', { body });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, name: 'PlatformCustomError', code: 'AC002' });
      expect(fieldsOf(response)).toContain(field);
    });

    it('refuses a body naming another company with 403', async () => {
      const response = await call('POST', '/clients', { body: { name: 'X', company_id: companyB } });

      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'AC006' });
    });

    it('updates only the fields sent, and soft-deletes', async () => {
      const { id } = (await call('POST', '/clients', { body: { name: 'Old name', phone: '123' } })).json<{
        id: number;
      }>();

      const updated = await call('PUT', `/clients/${id}`, { body: { name: 'New name' } });
      const deleted = await call('DELETE', `/clients/${id}`);
      const after = await call('GET', `/clients/${id}`);

      expect(updated.json()).toMatchObject({ id, name: 'New name', phone: '123' });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({ id, deleted_at: expect.stringMatching(/^\d{4}-/) });
      expect(after.statusCode).toBe(404);
    });

    it("hides another company's clients like missing ones", async () => {
      const { id } = (
        await call('POST', '/clients', { body: { name: 'Secret client' }, company: companyB })
      ).json<{ id: number }>();

      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await call(
          method,
          `/clients/${id}`,
          method === 'PUT' ? { body: { name: 'hijack' } } : {},
        );
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          status: 404,
          name: 'PlatformCustomError',
          code: 'AC003',
          message: `Client ${id} not found`,
        });
      }
      const list = (await call('GET', '/clients?page=false')).json<{ name: string }[]>();
      expect(list.map((client) => client.name)).not.toContain('Secret client');
    });

    it.each([
      [3, 'POST', 403],
      [4, 'GET', 200],
      [6, 'GET', 403],
    ] as const)('role %i on %s /clients answers %i', async (role, method, status) => {
      const response = await call(
        method,
        '/clients',
        method === 'POST' ? { role, body: { name: 'By role' } } : { role },
      );

      expect(response.statusCode).toBe(status);
    });
  });

  describe('lists', () => {
    beforeAll(async () => {
      for (let i = 1; i <= 5; i += 1) {
        await call('POST', '/clients', {
          body: { name: `Paged ${i}`, archived: i % 2 === 0 },
          company: companyB,
        });
      }
    });

    const list = (query: string) => call('GET', `/clients${query}`, { company: companyB });

    it('paginates with a string total, defaults and the last page', async () => {
      const first = (await list('?perPage=2')).json<Page<{ name: string }>>();
      const last = (await list('?perPage=2&page=3')).json<Page<{ name: string }>>();
      const beyond = (await list('?perPage=2&page=9')).json<Page<{ name: string }>>();

      expect(first).toMatchObject({ total: '6', perPage: 2, page: 1, lastPage: 3 });
      expect(first.data).toHaveLength(2);
      expect(last.data).toHaveLength(2);
      expect(beyond).toMatchObject({ total: '6', page: 9, data: [] });
    });

    it('answers a plain array with page=false', async () => {
      const response = (await list('?page=false')).json<unknown[]>();

      expect(Array.isArray(response)).toBe(true);
      expect(response).toHaveLength(6);
    });

    it('filters by allow-listed keys, scalars and arrays', async () => {
      const archived = (await list(`?page=false&filters=${encodeURIComponent('{"archived":true}')}`)).json<
        unknown[]
      >();
      const named = (
        await list(`?page=false&filters=${encodeURIComponent('{"name":["paged 1","PAGED 3"]}')}`)
      ).json<{ name: string }[]>();

      expect(archived).toHaveLength(2);
      expect(named.map((client) => client.name).sort()).toEqual(['Paged 1', 'Paged 3']);
    });

    it('answers an empty list as such', async () => {
      const response = (await list(`?filters=${encodeURIComponent('{"name":"no such client"}')}`)).json<
        Page<unknown>
      >();

      expect(response).toEqual({ total: '0', perPage: 20, page: 1, lastPage: 1, data: [] });
    });

    it.each(['0', '501', '2.5', 'ten'])('refuses perPage=%s naming the range', async (perPage) => {
      const response = await list(`?perPage=${perPage}`);

      expect(response.statusCode).toBe(400);
      expect(response.json<{ errors: { field: string; message: string }[] }>().errors).toContainEqual(
        expect.objectContaining({ field: 'perPage', message: 'perPage must be an integer from 1 to 500' }),
      );
    });

    it.each([
      ['?perPage=501', 'perPage'],
      ['?perPage=0', 'perPage'],
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      [`?filters=${encodeURIComponent('{"colour":"red"}')}`, 'filters.colour'],
      [`?filters=${encodeURIComponent('{"archived":"maybe"}')}`, 'filters.archived'],
      ['?filters=%7Bnot-json', 'filters'],
      [`?filters=${encodeURIComponent('[1,2]')}`, 'filters'],
      // Issue 20: keys Object.prototype has were a 500.
      [`?filters=${encodeURIComponent('{"constructor":1}')}`, 'filters.constructor'],
      [`?filters=${encodeURIComponent('{"__proto__":1}')}`, 'filters.__proto__'],
      [`?filters=${encodeURIComponent('{"toString":1}')}`, 'filters.toString'],
      [`?filters=${encodeURIComponent('{"hasOwnProperty":"x"}')}`, 'filters.hasOwnProperty'],
    ])('refuses %s with a 400 naming %s', async (query, field) => {
      const response = await list(query);

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain(field);
    });
  });

  describe('brands and products', () => {
    let clientId: number;
    let otherClientId: number;

    beforeAll(async () => {
      clientId = (await call('POST', '/clients', { body: { name: 'Brand owner' } })).json<{ id: number }>()
        .id;
      otherClientId = (await call('POST', '/clients', { body: { name: 'Other owner' } })).json<{
        id: number;
      }>().id;
    });

    it('creates a brand for a client of the company and a product of that brand', async () => {
      const brand = await call('POST', '/brands', {
        body: { client_id: clientId, name: 'Organic', description: 'Line' },
      });
      const product = await call('POST', '/products', {
        body: { client_id: clientId, brand_id: brand.json<{ id: number }>().id, name: 'Oats' },
      });

      expect(brand.statusCode).toBe(201);
      expect(brand.json()).toMatchObject({
        client_id: clientId,
        name: 'Organic',
        description: 'Line',
        company_id: companyA,
      });
      expect(product.statusCode).toBe(201);
      expect(product.json()).toEqual({
        id: expect.any(Number),
        version: 1,
        name: 'Oats',
        client_id: clientId,
        brand_id: brand.json<{ id: number }>().id,
      });
      expect((await call('GET', `/products/${product.json<{ id: number }>().id}`)).json()).toEqual(
        product.json(),
      );
    });

    it("refuses a brand of another company's client, and a product whose brand belongs to another client", async () => {
      const foreignClient = (
        await call('POST', '/clients', { body: { name: 'Foreign' }, company: companyB })
      ).json<{ id: number }>().id;
      const brandId = (await call('POST', '/brands', { body: { client_id: clientId, name: 'Mine' } })).json<{
        id: number;
      }>().id;

      const foreignBrand = await call('POST', '/brands', {
        body: { client_id: foreignClient, name: 'Stolen' },
      });
      const mismatched = await call('POST', '/products', {
        body: { client_id: otherClientId, brand_id: brandId, name: 'Mixed' },
      });

      expect(foreignBrand.statusCode).toBe(400);
      expect(foreignBrand.json()).toMatchObject({
        code: 'AC002',
        errors: [{ field: 'client_id', validation: 'exists' }],
      });
      expect(mismatched.statusCode).toBe(400);
      expect(mismatched.json()).toMatchObject({
        errors: [{ field: 'brand_id', validation: 'belongsToClient' }],
      });
    });

    it('lists brands of one client', async () => {
      const response = (
        await call(
          'GET',
          `/brands?page=false&filters=${encodeURIComponent(JSON.stringify({ client_id: otherClientId }))}`,
        )
      ).json<unknown[]>();

      expect(response).toEqual([]);
    });
  });

  describe('reference data', () => {
    it('lists the seeded currencies, leave types and transaction sources', async () => {
      const currencies = (await call('GET', '/currencies')).json<{ id: number; code: string }[]>();
      const leaveTypes = (await call('GET', '/leave-types')).json<{ id: number; name: string }[]>();
      const sources = (await call('GET', '/transaction-sources')).json<{ id: number; name: string }[]>();

      expect(currencies.map((currency) => currency.code)).toEqual([
        'USD',
        'EUR',
        'GBP',
        'ARS',
        'MXN',
        'CLP',
        'COP',
        'BRL',
        'PEN',
        'UYU',
      ]);
      expect(leaveTypes.map((type) => type.name)).toEqual([
        'Vacation',
        'Sick leave',
        'Personal',
        'Parental',
        'Unpaid',
        'Other',
      ]);
      expect(sources.map((source) => source.name)).toEqual([
        'Manual',
        'Bank import',
        'Invoice',
        'Integration',
      ]);
    });
  });
});
