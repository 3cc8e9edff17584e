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
