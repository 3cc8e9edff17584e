import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { requestBody?: unknown; responses: Record<string, { content?: unknown }> }>
  >;
}

// Every operation of issue 4 (and the token endpoints), as frontends will look for it.
const OPERATIONS: [string, string, { body?: boolean; response?: boolean }][] = [
  ['post', '/v1/oauth/token', { response: true }],
  ['post', '/v1/oauth/refreshtoken', { body: true, response: true }],
  ['post', '/v1/oauth/revoke', { body: true }],
  ['get', '/v1/.well-known/oauth-authorization-server', { response: true }],
  ['get', '/v1/currencies', { response: true }],
  ['get', '/v1/leave-types', { response: true }],
  ['get', '/v1/transaction-sources', { response: true }],
  ...[
    'clients',
    'brands',
    'products',
    'users',
    'positions',
    'position-categories',
    'teams',
    'workspaces',
    'contracts',
    'ratecards',
    'labels',
  ].flatMap((collection): [string, string, { body?: boolean; response?: boolean }][] => [
    ['post', `/v1/${collection}`, { body: true, response: true }],
    ['get', `/v1/${collection}`, { response: true }],
    ['get', `/v1/${collection}/{id}`, { response: true }],
    ['put', `/v1/${collection}/{id}`, { body: true, response: true }],
    ['delete', `/v1/${collection}/{id}`, { response: true }],
  ]),
  ['post', '/v1/teams/{id}/users', { body: true, response: true }],
  ['delete', '/v1/teams/{id}/users', { body: true, response: true }],
  ['post', '/v1/contracts/{id}/users', { body: true, response: true }],
  ['delete', '/v1/contracts/{id}/users', { body: true, response: true }],
  ['get', '/v1/categories/labels-model', { response: true }],
  ['post', '/v1/clients/{client_id}/fees', { body: true, response: true }],
  ['get', '/v1/clients/{client_id}/fees', { response: true }],
  ['get', '/v1/clients/{client_id}/fees/{id}', { response: true }],
  ['put', '/v1/clients/{client_id}/fees/{id}', { body: true, response: true }],
  ['post', '/v1/transactions', { body: true, response: true }],
  ['get', '/v1/transactions', { response: true }],
  ['get', '/v1/transactions/{id}', { response: true }],
  ['delete', '/v1/transactions/{id}', { response: true }],
  ['post', '/v1/user/leaves', { body: true, response: true }],
  ['get', '/v1/user/leaves', { response: true }],
  ['get', '/v1/working-time/company/with/users', { response: true }],
  ['get', '/v1/working-time/users/{user_id}', { response: true }],
  ['put', '/v1/working-time/users/{user_id}', { body: true, response: true }],
  ['post', '/v1/projects', { body: true, response: true }],
  ['get', '/v1/projects', { response: true }],
  ['get', '/v1/projects/{project_id}', { response: true }],
  ['put', '/v1/projects/{project_id}', { body: true, response: true }],
  ['get', '/v1/projects/search-by-name/{project_name}', { response: true }],
  ['post', '/v1/projects/{project_id}/project_cost', { body: true, response: true }],
  ['get', '/v1/projects/{project_id}/project_cost', { response: true }],
  ['post', '/v1/projects/{project_id}/project_estimate', { body: true, response: true }],
  ['get', '/v1/projects/{project_id}/project_estimate', { response: true }],
  ['post', '/v1/tasks', { body: true, response: true }],
  ['get', '/v1/tasks', { response: true }],
  ['get', '/v1/tasks/{task_id}', { response: true }],
  ['put', '/v1/tasks/{task_id}', { body: true, response: true }],
  ['delete', '/v1/tasks/{task_id}', { response: true }],
  ['post', '/v1/tasks/{task_id}/attachments/source/{source_type}', { body: true, response: true }],
  ['post', '/v1/hours', { body: true, response: true }],
  ['get', '/v1/hours', { response: true }],
  ['put', '/v1/hours/{id}', { body: true, response: true }],
  ['delete', '/v1/hours/{id}', { response: true }],
];

describe('main-api OpenAPI document (e2e)', () => {
  let app: MainApiTestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    app = await startMainApiTestApp([]);
    document = (await app.service.app.inject({ method: 'GET', url: '/docs-json' })).json<OpenApiDocument>();
  });

  afterAll(() => app.close());

  it.each(OPERATIONS)('documents %s %s with its schemas', (method, path, expects) => {
    const operation = document.paths[path]?.[method];

    expect(operation).toBeDefined();
    if (expects.body) {
      expect(operation?.requestBody).toBeDefined();
    }
    if (expects.response) {
      const success = Object.entries(operation?.responses ?? {}).find(([status]) => status.startsWith('2'));
      expect(success?.[1].content).toBeDefined();
    }
  });
});

interface DocumentedParameter {
  name: string;
  in: string;
  example?: unknown;
  schema?: { example?: unknown };
}

interface DocumentedResponse {
  content?: Record<string, { schema?: { $ref?: string }; example?: { status?: number; code?: string } }>;
}

interface DocumentedOperation {
  parameters?: DocumentedParameter[];
  responses: Record<string, DocumentedResponse>;
}

describe("main-api OpenAPI document: Swagger UI's Try it out, as prefilled (e2e)", () => {
  let app: MainApiTestApp;
  let paths: Record<string, Record<string, DocumentedOperation>>;
  let clientId: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Swagger Agency']);
    paths = (await app.service.app.inject({ method: 'GET', url: '/docs-json' })).json<{
      paths: Record<string, Record<string, DocumentedOperation>>;
    }>().paths;
    clientId = (await app.call('POST', '/clients', { name: 'Northwind', currency_id: 1 })).json<{
      id: number;
    }>().id;
  });

  afterAll(() => app.close());

  it('answers every list 200 with the query examples it documents, its filters example included', async () => {
    const lists = Object.entries(paths).flatMap(([path, item]) =>
      item.get?.parameters?.some((parameter) => parameter.in === 'query' && parameter.name === 'filters')
        ? [{ path, parameters: item.get.parameters }]
        : [],
    );
    const answers: { url: string; status: number; body: string }[] = [];
    for (const { path, parameters } of lists) {
      // What Try it out sends untouched: every query example; a path id is the client made above.
      const query = new URLSearchParams();
      for (const parameter of parameters) {
        const example = parameter.example ?? parameter.schema?.example;
        if (parameter.in === 'query' && (typeof example === 'string' || typeof example === 'number')) {
          query.set(parameter.name, String(example));
        }
      }
      const url = `${path.replace('/v1', '').replace('{client_id}', String(clientId))}?${query.toString()}`;
      const response = await app.call('GET', url);
      answers.push({
        url,
        status: response.statusCode,
        body: response.statusCode === 200 ? '' : response.body,
      });
    }

    expect(lists.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['/v1/clients', '/v1/projects', '/v1/users', '/v1/clients/{client_id}/fees']),
    );
    expect(lists).toHaveLength(20);
    expect(answers).toEqual(answers.map((answer) => ({ ...answer, status: 200, body: '' })));
  });

  it("shows, for each error status, an example of main-api's error body with that status", () => {
    const mismatches: string[] = [];
    let examples = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const json = response.content?.['application/json'];
          if (!/^[45]/.test(status) || json?.schema?.$ref !== '#/components/schemas/MainApiErrorBodyDto') {
            continue;
          }
          examples += 1;
          if (json.example?.status !== Number(status)) {
            mismatches.push(`${method} ${path} ${status}: ${JSON.stringify(json.example)}`);
          }
        }
      }
    }

    expect(examples).toBeGreaterThan(100);
    expect(mismatches).toEqual([]);
  });

  it('gives the 404 example the code and shape a real 404 has', async () => {
    const example = paths['/v1/clients/{id}'].get.responses['404'].content?.['application/json'].example;
    const real = (await app.call('GET', '/clients/999999')).json<Record<string, unknown>>();

    expect(Object.keys(real).sort()).toEqual(Object.keys(example ?? {}).sort());
    expect(real).toMatchObject({ status: 404, code: example?.code });
  });
});
