import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api fees and transactions (e2e)', () => {
  let app: MainApiTestApp;
  let companyA: number;
  let companyB: number;
  let clientId: number;
  let foreignClientId: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['MA', 'MB']);
    [{ companyId: companyA }, { companyId: companyB }] = app.companies;
    clientId = (await call('POST', '/clients', { name: 'Payer' })).json<{ id: number }>().id;
    foreignClientId = (await call('POST', '/clients', { name: 'Other payer' }, companyB)).json<{
      id: number;
    }>().id;
  });

  afterAll(() => app.close());

  function call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: object,
    company?: number,
    role = 1,
  ) {
    return app.call(method, url, body, { company: company ?? companyA, role });
  }

  describe('fees', () => {
    const fee = {
      name: 'Retainer',
      estimate: 12000.5,
      work_order: 'WO-1',
      description: 'Monthly',
      frequency: 1,
      status: 'inactive',
      estimated_time: 80,
      start: '2026-01-01',
      end: '2026-12-31',
      currency_id: 2,
    };

    it('creates a fee, always active, with numbers as numbers', async () => {
      const response = await call('POST', `/clients/${clientId}/fees`, fee);

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        version: 1,
        client_id: clientId,
        ...fee,
        status: 'active',
      });
    });

    it('updates status to inactive and lists by status', async () => {
      const { id } = (await call('POST', `/clients/${clientId}/fees`, { name: 'Second' })).json<{
        id: number;
      }>();

      const updated = await call('PUT', `/clients/${clientId}/fees/${id}`, { status: 'inactive' });
      const inactive = await call(
        'GET',
        `/clients/${clientId}/fees?page=false&filters=${encodeURIComponent('{"status":"inactive"}')}`,
      );

      expect(updated.json()).toMatchObject({ id, status: 'inactive' });
      expect(inactive.json<{ id: number }[]>().map((item) => item.id)).toEqual([id]);
    });

    it.each([
      [{ name: 'X', status: 'paused' }, 'status'],
      [{ name: 'X', start: '2026-12-01', end: '2026-01-01' }, 'end'],
      [{ name: 'X', start: '2026-02-30' }, 'start'],
      [{ name: 'X', estimate: -1 }, 'estimate'],
      [{ name: 'X', frequency: 0 }, 'frequency'],
    ])('refuses %p naming %s', async (body, field) => {
      const response = await call('POST', `/clients/${clientId}/fees`, body);

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain(field);
    });

    it("answers 404 for another company's client", async () => {
      const response = await call('POST', `/clients/${foreignClientId}/fees`, { name: 'Sneaky' });

      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'AC003',
        message: `Client ${foreignClientId} not found`,
      });
    });
  });

  describe('transactions', () => {
    const transaction = () => ({
      date: '2026-11-20',
      type: 'invoice',
      total: 1500.5,
      currency_change_amount: 1500.5,
      exchange: 1,
      source_id: 3,
      currency_id: 1,
      receipt_number: 'INV-42',
      is_income: true,
      client_id: clientId,
      company_id: companyA,
      can_update: true,
      can_delete: false,
    });

    it('records a transaction and never answers can_update or can_delete', async () => {
      const response = await call('POST', '/transactions', transaction());

      expect(response.statusCode).toBe(201);
      const { can_update: _canUpdate, can_delete: _canDelete, ...expected } = transaction();
      expect(response.json()).toEqual({ id: expect.any(Number), version: 1, ...expected });
    });

    it('deletes a transaction, answering it, and 404s afterwards', async () => {
      const { id } = (await call('POST', '/transactions', transaction())).json<{ id: number }>();

      const deleted = await call('DELETE', `/transactions/${id}`);
      const again = await call('DELETE', `/transactions/${id}`);

      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({ id, receipt_number: 'INV-42' });
      expect(again.statusCode).toBe(404);
    });

    it.each([
      [{ type: 'refund' }, 'type'],
      [{ total: 'a lot' }, 'total'],
      [{ source_id: 5 }, 'source_id'],
      [{ date: '20-11-2026' }, 'date'],
      [{ receipt_number: '' }, 'receipt_number'],
    ])('refuses %p naming %s', async (override, field) => {
      const response = await call('POST', '/transactions', { ...transaction(), ...override });

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain(field);
    });

    it("refuses another company's client and a foreign company_id", async () => {
      const foreignClient = await call('POST', '/transactions', {
        ...transaction(),
        client_id: foreignClientId,
      });
      const foreignCompany = await call('POST', '/transactions', { ...transaction(), company_id: companyB });

      expect(foreignClient.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'client_id' }] });
      expect(foreignCompany.statusCode).toBe(403);
    });

    it('keeps transactions away from project managers', async () => {
      expect((await call('POST', '/transactions', transaction(), undefined, 3)).statusCode).toBe(403);
    });
  });

  describe('contracts', () => {
    it('creates a contract, assigns users, and soft-deletes it answering deleted_at and currency', async () => {
      const created = await call('POST', '/contracts', {
        client_id: clientId,
        name: 'MSA 2026',
        currency_id: 2,
        json_integrations: { crm_deal: 'D-1' },
        start: '2026-01-01',
        end: '2026-12-31T23:59:59Z',
      });
      const { id } = created.json<{ id: number }>();
      const me = (await call('GET', '/users?page=false')).json<{ id: number }[]>()[0].id;

      const withUsers = await call('POST', `/contracts/${id}/users`, { user_ids: [me] });
      const deleted = await call('DELETE', `/contracts/${id}`);

      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        client_id: clientId,
        company_id: companyA,
        currency_id: 2,
        json_integrations: { crm_deal: 'D-1' },
        status: 'active',
        start: '2026-01-01 00:00:00',
        end: '2026-12-31 23:59:59',
        deleted_at: null,
        currency: { id: 2, name: 'Euro' },
        user_ids: [],
      });
      expect(withUsers.json()).toMatchObject({ user_ids: [me] });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toMatchObject({
        id,
        deleted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        currency: { id: 2, name: 'Euro' },
      });
      expect((await call('GET', `/contracts/${id}`)).statusCode).toBe(404);
    });

    it('changes the currency of a contract, answering the new one and keeping its users', async () => {
      const { id } = (await call('POST', '/contracts', { client_id: clientId, name: 'SOW' })).json<{
        id: number;
      }>();
      const me = (await call('GET', '/users?page=false')).json<{ id: number }[]>()[0].id;
      await call('POST', `/contracts/${id}/users`, { user_ids: [me] });

      const updated = await call('PUT', `/contracts/${id}`, { currency_id: 2, status: 'paused' });

      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        currency_id: 2,
        currency: { id: 2, name: 'Euro' },
        status: 'paused',
        user_ids: [me],
      });
      expect((await call('GET', `/contracts/${id}`)).json()).toMatchObject({
        currency: { id: 2 },
        user_ids: [me],
      });
    });

    it("refuses another company's client and an inverted period", async () => {
      const foreign = await call('POST', '/contracts', { client_id: foreignClientId, name: 'X' });
      const inverted = await call('POST', '/contracts', {
        client_id: clientId,
        name: 'X',
        start: '2026-05-01',
        end: '2026-01-01',
      });

      expect(foreign.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'client_id' }] });
      expect(inverted.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'end' }] });
    });
  });
});
