import { checkRowLevelSecurity, expectNoAnswerLeaks } from '@platform/testing';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

const MARKER = 'OwnerOnlyMarker';

/**
 * Row-level security on every main-api table with company data, proven as the service's runtime
 * role on rows made through the API; and no GET of the document shows one company's rows to another.
 */
describe('main-api row-level security (e2e)', () => {
  let app: MainApiTestApp;
  let owner: number;
  let intruder: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Owner', 'Intruder']);
    owner = app.companies[0].companyId;
    intruder = app.companies[1].companyId;
    const create = async (collection: string, body: object): Promise<number> => {
      const response = await app.call('POST', `/${collection}`, body, { company: owner });
      expect({ collection, status: response.statusCode }).toEqual({ collection, status: 201 });
      return response.json<{ id: number }>().id;
    };
    const client = await create('clients', { name: `${MARKER} client` });
    const brand = await create('brands', { client_id: client, name: `${MARKER} brand` });
    await create('products', { client_id: client, brand_id: brand, name: `${MARKER} product` });
    await create('position-categories', { name: `${MARKER} category` });
    await create('positions', { name: `${MARKER} position` });
    await create('teams', { name: `${MARKER} team` });
    await create('workspaces', { name: `${MARKER} workspace` });
    await create('contracts', { client_id: client, name: `${MARKER} contract` });
    await create('ratecards', { name: `${MARKER} ratecard` });
    await create('labels', { name: `${MARKER} label`, model: 'project' });
    const project = await create('projects', { name: `${MARKER} project`, client_id: client });
    await create('tasks', { project_id: project, name: `${MARKER} task` });
    await create('users', {
      first_name: MARKER,
      last_name: 'Owner',
      email: 'marker.owner@owner.test',
      role_id: 4,
    });
  });

  afterAll(() => app.close());

  it('every tenant table: forced RLS, empty and unwritable without a scope, exactly its rows with one', async () => {
    const report = await checkRowLevelSecurity({
      ownerUrl: app.service.database.url,
      schema: 'main_api',
      runtimeRole: 'main_api_runtime',
      companyId: owner,
      otherCompanyId: intruder,
    });

    expect(report.failures).toEqual([]);
    expect(report.tenantTables).toHaveLength(40);
    // The reads are proven on real rows, not on empty tables.
    expect(report.tablesWithRows.length).toBeGreaterThanOrEqual(15);
  });

  it("no GET of the document answers another company's rows, whatever the id", async () => {
    const calls = await expectNoAnswerLeaks({
      app: app.service.app,
      get: (url) => app.call('GET', url.replace(/^\/v1/, ''), undefined, { company: intruder }),
      marker: MARKER,
      maxId: 20,
    });

    expect(calls).toBeGreaterThan(300);
  });

  it('refuses to start as a role that row-level security does not apply to (here a superuser)', async () => {
    await expect(startMainApiTestApp(['Anyone'], { DATABASE_ROLE: 'login' })).rejects.toThrow(
      /is a superuser: connect as the service's runtime role/,
    );
  });
});
