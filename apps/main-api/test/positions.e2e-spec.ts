import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api positions and position categories (e2e)', () => {
  let app: MainApiTestApp;
  let companyB: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['PA', 'PB']);
    companyB = app.companies[1].companyId;
  });

  afterAll(() => app.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object, company?: number) =>
    app.call(method, url, body, company === undefined ? {} : { company });
  const idOf = async (response: Promise<{ json<T>(): T }>) => (await response).json<{ id: number }>().id;

  it("moves a position to another category, answering that category's name", async () => {
    const design = await idOf(call('POST', '/position-categories', { name: 'Design' }));
    const copy = await idOf(call('POST', '/position-categories', { name: 'Copy' }));
    const position = await idOf(call('POST', '/positions', { name: 'Writer', category_id: design }));

    const moved = await call('PUT', `/positions/${position}`, { category_id: copy });
    const renamed = await call('PUT', `/positions/${position}`, { name: 'Senior writer' });

    expect(moved.json()).toMatchObject({ name: 'Writer', category_id: copy, category_name: 'Copy' });
    expect(renamed.json()).toMatchObject({ name: 'Senior writer', category_id: copy, category_name: 'Copy' });
    expect((await call('GET', `/positions/${position}`)).json()).toMatchObject({ category_name: 'Copy' });
  });

  it('soft-deletes a position answering it with its category, then 404s', async () => {
    const category = await idOf(call('POST', '/position-categories', { name: 'Strategy' }));
    const position = await idOf(call('POST', '/positions', { name: 'Planner', category_id: category }));

    const deleted = await call('DELETE', `/positions/${position}`);

    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ id: position, name: 'Planner', category_name: 'Strategy' });
    expect((await call('GET', `/positions/${position}`)).statusCode).toBe(404);
  });

  it('renames and soft-deletes a category, hidden from another company', async () => {
    const category = await idOf(call('POST', '/position-categories', { name: 'Ops' }));

    const renamed = await call('PUT', `/position-categories/${category}`, { name: 'Operations' });
    const foreign = await call('GET', `/position-categories/${category}`, undefined, companyB);
    const deleted = await call('DELETE', `/position-categories/${category}`);

    expect(renamed.json()).toMatchObject({ id: category, name: 'Operations' });
    expect(foreign.statusCode).toBe(404);
    expect(deleted.json()).toMatchObject({ id: category, name: 'Operations' });
    expect((await call('GET', `/position-categories/${category}`)).statusCode).toBe(404);
  });
});
