import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api ratecards and labels (e2e)', () => {
  let app: MainApiTestApp;
  let companyB: number;
  let designer: number;
  let writer: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['RA', 'RB']);
    companyB = app.companies[1].companyId;
    designer = (await app.call('POST', '/positions', { name: 'Designer' })).json<{ id: number }>().id;
    writer = (await app.call('POST', '/positions', { name: 'Writer' })).json<{ id: number }>().id;
  });

  afterAll(() => app.close());

  describe('ratecards', () => {
    it('holds one price per position and lists the company ratecards', async () => {
      const created = await app.call('POST', '/ratecards', {
        name: 'Standard',
        currency_id: 2,
        prices: [
          { position_id: writer, price: 70 },
          { position_id: designer, price: 95.5 },
        ],
      });
      await app.call('POST', '/ratecards', { name: 'Theirs' }, { company: companyB });

      const list = await app.call('GET', '/ratecards');

      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        name: 'Standard',
        currency_id: 2,
        prices: [
          { position_id: designer, position_name: 'Designer', price: 95.5 },
          { position_id: writer, position_name: 'Writer', price: 70 },
        ],
      });
      expect(list.json()).toMatchObject({ total: '1', data: [{ name: 'Standard' }] });
    });

    it('replaces all prices on update', async () => {
      const { id } = (
        await app.call('POST', '/ratecards', {
          name: 'Rush',
          prices: [{ position_id: designer, price: 120 }],
        })
      ).json<{ id: number }>();

      const updated = await app.call('PUT', `/ratecards/${id}`, {
        prices: [{ position_id: writer, price: 90 }],
      });

      expect(updated.json()).toMatchObject({ name: 'Rush', prices: [{ position_id: writer, price: 90 }] });
      expect(updated.json<{ prices: unknown[] }>().prices).toHaveLength(1);
    });

    it.each([
      [{ name: 'X', prices: [{ position_id: 999999, price: 1 }] }, 'prices'],
      [{ name: 'X', prices: [{ position_id: 1, price: -1 }] }, 'prices.0.price'],
      [{ name: 'X', prices: 'cheap' }, 'prices'],
    ])('refuses %p naming %s', async (body, field) => {
      const response = await app.call('POST', '/ratecards', body);

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain(field);
    });

    it('refuses the same position twice', async () => {
      const response = await app.call('POST', '/ratecards', {
        name: 'Twice',
        prices: [
          { position_id: designer, price: 1 },
          { position_id: designer, price: 2 },
        ],
      });

      expect(fieldsOf(response)).toEqual(['prices']);
    });
  });

  describe('labels', () => {
    it('answers the labels of a model for /categories/labels-model', async () => {
      const priority = (
        await app.call('POST', '/labels', { name: 'Priority', color: '#FF5722', model: 'project' })
      ).json<{ id: number }>();
      await app.call('POST', '/labels', { name: 'Remote', model: 'user' });
      await app.call('POST', '/labels', { name: 'Theirs', model: 'project' }, { company: companyB });

      const response = await app.call('GET', '/categories/labels-model?model=project');

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        { id: priority.id, version: 1, name: 'Priority', color: '#ff5722', model: 'project' },
      ]);
    });

    it.each(['project', 'user', 'task'])(
      'keeps labels-model?model=%s from role 6 (Client), as /labels does, and answers roles 1-5',
      async (model) => {
        const asClient = await app.call('GET', `/categories/labels-model?model=${model}`, undefined, {
          role: 6,
        });

        expect(asClient.statusCode).toBe(403);
        expect(asClient.json()).toMatchObject({ status: 403, name: 'PlatformCustomError', code: 'AC006' });
        expect((await app.call('GET', '/labels', undefined, { role: 6 })).statusCode).toBe(403);
        for (const role of [1, 2, 3, 4, 5]) {
          const response = await app.call('GET', `/categories/labels-model?model=${model}`, undefined, {
            role,
          });
          expect({ role, status: response.statusCode }).toEqual({ role, status: 200 });
        }
      },
    );

    it.each(['?model=invoice', ''])('refuses labels-model%s', async (query) => {
      const response = await app.call('GET', `/categories/labels-model${query}`);

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain('model');
    });

    it('refuses a malformed colour', async () => {
      const response = await app.call('POST', '/labels', { name: 'Bad', color: 'red', model: 'task' });

      expect(fieldsOf(response)).toContain('color');
    });
  });
});
