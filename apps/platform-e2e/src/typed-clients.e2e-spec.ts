import { randomBytes } from 'node:crypto';
import {
  createIntegrationsClient,
  createMainApiClient,
  createPlannerClient,
  type IntegrationsClient,
  type MainApiClient,
  type PlannerClient,
} from '@platform/api-clients';
import { createTestDatabase, generateTestKeyPair, type TestDatabase } from '@platform/testing';
import { migrateAll, provision, startPlatform, stopAll, type RunningService } from './service-process';

/** What `npm run provision` prints (the fields these tests read). */
interface Provisioned {
  companyId: number;
  userId: number;
  apiKey: string;
  clientSecret: string;
}

/** An openapi-fetch result as its union makes it: the typed body of a 2xx, or the error body. */
interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The typed body of an answer with `status`; a refusal fails with the service's own error body. */
function body<Data>(answer: Answer<Data>, status: number): Data {
  if (answer.response.status !== status || answer.data === undefined) {
    throw new Error(`expected ${status}, got ${answer.response.status}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

/**
 * The services as a consumer sees them with clients generated from the committed OpenAPI documents
 * (`@platform/api-clients`: openapi-typescript types, openapi-fetch calls). Every request and field
 * below is typed by the documents, so a path, parameter or field they get wrong stops the compile;
 * the answers pass the validating proxy of service-process.ts on top.
 */
describe('the three services through clients generated from their OpenAPI documents', () => {
  const keys = generateTestKeyPair();
  const changeOriginKey = randomBytes(32).toString('base64');
  let database: TestDatabase;
  let services: RunningService[] = [];
  let company: Provisioned;
  let main: MainApiClient;
  let planner: PlannerClient;
  let integrations: IntegrationsClient;

  beforeAll(async () => {
    database = await createTestDatabase('typed_clients');
    await migrateAll(database.url);
    const platform = await startPlatform(database.url, { jwtPrivateKey: keys.privatePem, changeOriginKey });
    services = platform.services;
    const { mainApi, planner: plannerService, integrations: integrationsService } = platform;

    company = await provision<Provisioned>(database.url, ['--company', 'Typed Clients Agency']);

    // client_credentials with client_secret_post, form-encoded as RFC 6749 §4.4 has it.
    const token = body(
      await createMainApiClient(mainApi.url).POST('/v1/oauth/token', {
        body: {
          grant_type: 'client_credentials',
          client_id: company.apiKey,
          client_secret: company.clientSecret,
        },
        bodySerializer: (fields) =>
          new URLSearchParams(
            Object.entries(fields).flatMap(([name, value]): [string, string][] =>
              typeof value === 'string' ? [[name, value]] : [],
            ),
          ),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      200,
    );
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBeGreaterThan(0);
    main = createMainApiClient(mainApi.url, token.access_token);
    planner = createPlannerClient(plannerService.url, token.access_token);
    integrations = createIntegrationsClient(integrationsService.url, token.access_token);
  }, 60_000);

  afterAll(async () => {
    try {
      // Fails the file with every answer that differed from the services' documents.
      await stopAll(services);
    } finally {
      services = [];
      await database?.drop();
    }
  });

  it('creates and reads a client, a brand and a project in main-api, and pages through clients', async () => {
    const client = body(
      await main.POST('/v1/clients', { body: { name: 'Typed Foods', tax_id: 'TF-1' } }),
      201,
    );
    expect(client).toMatchObject({ name: 'Typed Foods', tax_id: 'TF-1', archived: false, email: null });
    expect(client.company_id).toBe(company.companyId);

    const read = body(await main.GET('/v1/clients/{id}', { params: { path: { id: client.id } } }), 200);
    expect(read).toEqual(client);

    const brand = body(
      await main.POST('/v1/brands', { body: { client_id: client.id, name: 'Typed Crunch' } }),
      201,
    );
    expect(brand).toMatchObject({ client_id: client.id, name: 'Typed Crunch', description: null });
    expect(body(await main.GET('/v1/brands/{id}', { params: { path: { id: brand.id } } }), 200).name).toBe(
      'Typed Crunch',
    );

    const project = body(
      await main.POST('/v1/projects', {
        body: { name: 'Typed launch', client_id: client.id, brand_id: brand.id, billable: true },
      }),
      201,
    );
    expect(project).toMatchObject({
      client_id: client.id,
      brand_id: brand.id,
      billable: true,
      status: 'active',
    });
    const detail = body(
      await main.GET('/v1/projects/{project_id}', { params: { path: { project_id: project.id } } }),
      200,
    );
    expect(detail.name).toBe('Typed launch');
    expect(detail.client?.id).toBe(client.id);

    for (const name of ['Typed Second', 'Typed Third']) {
      body(await main.POST('/v1/clients', { body: { name } }), 201);
    }
    const secondPage = body(
      await main.GET('/v1/clients', { params: { query: { perPage: 2, page: '2' } } }),
      200,
    );
    if (Array.isArray(secondPage)) {
      throw new Error('page=2 answered a plain array, not a page');
    }
    expect(secondPage).toMatchObject({ total: '3', perPage: 2, page: 2, lastPage: 2 });
    expect(secondPage.data.map((listed) => listed.name)).toHaveLength(1);
    // page=false: every result as a plain array, the other branch of the documented answer.
    const everything = body(await main.GET('/v1/clients', { params: { query: { page: 'false' } } }), 200);
    expect(Array.isArray(everything) ? everything.map((listed) => listed.name).sort() : everything).toEqual([
      'Typed Foods',
      'Typed Second',
      'Typed Third',
    ]);
  });

  it('books an allocation in the planner and reads it back with the capacity of the working week', async () => {
    const client = body(await main.POST('/v1/clients', { body: { name: 'Planned Client' } }), 201);
    const project = body(
      await main.POST('/v1/projects', { body: { name: 'Planned project', client_id: client.id } }),
      201,
    );
    const week = body(
      await main.PUT('/v1/working-time/users/{user_id}', {
        params: { path: { user_id: company.userId } },
        body: {
          entries: ([1, 2, 3, 4, 5] as const).map((day) => ({
            day_of_week: day,
            daily_hours: 8,
            start_at: '09:00:00',
            end_at: '17:00:00',
          })),
        },
      }),
      200,
    );
    expect(week.map((day) => day.day_of_week)).toEqual([1, 2, 3, 4, 5]);

    const saved = await planner.POST('/allocation/saveAllocation', {
      body: {
        userId: company.userId,
        companyId: company.companyId,
        resource: { typeId: 'Project', entityId: project.id },
        from: '2027-01-04',
        to: '2027-01-08',
        assignedByUserId: company.userId,
        allocatedHours: 16,
      },
    });
    expect({ status: saved.response.status, error: saved.error }).toEqual({ status: 200, error: undefined });

    const report = body(
      await planner.GET('/allocation/getAllocations/{projectId}', {
        params: { path: { projectId: project.id } },
      }),
      200,
    );
    expect(report.users.map((user) => user.userId)).toEqual([company.userId]);
    const [user] = report.users;
    expect(user.totalAllocatedHours).toBe(16);
    expect(
      user.allocations.map(({ from, to, allocatedHours, capacity }) => ({
        from,
        to,
        allocatedHours,
        capacity,
      })),
    ).toEqual([{ from: '2027-01-04T00:00:00', to: '2027-01-08T00:00:00', allocatedHours: 16, capacity: 40 }]);
  });

  it('creates a client by its external id through integrations and finds it by the mapping', async () => {
    const created = body(
      await integrations.POST('/v2/integrations/clients', {
        body: { metadata: { source: 'JIRA' }, id: 'CLI-TYPED-1', name: 'Mapped Foods' },
      }),
      201,
    );
    expect(created).toMatchObject({ name: 'Mapped Foods', company_id: company.companyId });

    const mapping = body(
      await integrations.GET('/v2/integrations/{entity}/{external_id}', {
        params: { path: { entity: 'clients', external_id: 'CLI-TYPED-1' }, query: { source: 'JIRA' } },
      }),
      200,
    );
    expect(mapping).toMatchObject({
      entity: 'clients',
      external_id: 'CLI-TYPED-1',
      source: 'JIRA',
      state: 'complete',
      platform_id: created.id,
    });
    // The platform client behind the mapping, read from main-api with its typed client.
    const platformClient = body(
      await main.GET('/v1/clients/{id}', { params: { path: { id: created.id } } }),
      200,
    );
    expect(platformClient.name).toBe('Mapped Foods');
  });
});
