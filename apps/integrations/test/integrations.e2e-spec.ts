import { randomBytes } from 'node:crypto';
import {
  itAuthenticatesEveryRoute,
  itRejectsBadBearerTokens,
  itServesTheOperationalEndpoints,
  signTestToken,
  startConsumerTestService,
  type ConsumerTestService,
  TEST_CHANGE_ORIGIN_KEY,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { IntegrationsEnv } from '../src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../src/database/integrations.data-source';
import { integrationsService } from '../src/integrations.service';

describe('integrations (e2e)', () => {
  let service: ConsumerTestService<IntegrationsEnv>;
  let keys: ConsumerTestService<IntegrationsEnv>['keys'];
  let mainApi: ConsumerTestService<IntegrationsEnv>['mainApi'];

  beforeAll(async () => {
    service = await startConsumerTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
      },
    });
    ({ keys, mainApi } = service);
  });

  afterAll(() => service.close());

  itAuthenticatesEveryRoute({
    getApp: () => service.app,
    publicOperations: [
      'GET /health/live',
      'GET /health/ready',
      'GET /health/ready/self',
      'POST /v2/integrations/webhooks/{source}',
    ],
  });

  itServesTheOperationalEndpoints({
    getApp: () => service.app,
    getEnv: () => service.env,
    dataSourceOptions: integrationsOwnerDataSourceOptions,
    openApiTitle: 'Integrations',
    committedOpenApi: 'openapi/integrations.json',
    notFoundBody: { error: 'NotFoundError', message: 'Cannot GET /no-such-route', code: 'ZC001' },
    malformedJsonBody: {
      error: 'ValidationError',
      message: expect.stringContaining('JSON') as unknown as string,
      code: 'ZC002',
    },
  });

  describe('readiness', () => {
    afterEach(() => mainApi.reset());

    it('with main-api up: /health/ready checks the database and main-api, /health/ready/self only the database', async () => {
      const ready = await service.app.inject({ method: 'GET', url: '/health/ready' });
      mainApi.requests.length = 0;
      const self = await service.app.inject({ method: 'GET', url: '/health/ready/self' });

      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' }, 'main-api': { status: 'up' } },
      });
      expect(self.statusCode).toBe(200);
      expect(self.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
      expect(Object.keys(self.json<{ details: object }>().details)).toEqual(['database']);
      // The delivery worker may follow the feed meanwhile; no request is a health check.
      expect(mainApi.requests.filter((request) => request.url.startsWith('/health'))).toEqual([]);
    });

    it('while main-api drops connections: /health/ready is 503 naming main-api, /health/ready/self stays 200', async () => {
      mainApi.respondWith((_request, response) => response.socket?.destroy());

      const ready = await service.app.inject({ method: 'GET', url: '/health/ready' });
      const self = await service.app.inject({ method: 'GET', url: '/health/ready/self' });

      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'error',
        info: { database: { status: 'up' } },
        error: { 'main-api': { status: 'down' } },
      });
      expect(self.statusCode).toBe(200);
      expect(self.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
    });
  });

  describe("authentication with keys from main-api's JWKS", () => {
    itRejectsBadBearerTokens({
      getApp: () => service.app,
      getKeys: () => keys,
      url: '/v2/integrations/test-probe/principal',
      unauthorizedBody: (message) => ({ error: 'Unauthorized', message, code: 'ZC001' }),
    });

    it.each([
      [1, 200],
      [2, 200],
      [3, 403],
      [5, 403],
    ])('lets role %i use integrations: %i', async (roleId, status) => {
      const token = signTestToken({ keys, roleId });

      const response = await service.app.inject({
        method: 'GET',
        url: '/v2/integrations/test-probe/integrations',
        headers: { authorization: `Bearer ${token}` },
      });

      expect(response.statusCode).toBe(status);
    });
  });

  it('keeps one mapping per company, source, entity and external id, in the database', async () => {
    const dataSource = await new DataSource(integrationsOwnerDataSourceOptions(service.env)).initialize();
    const reserve = (companyId: number, source: string) =>
      dataSource.query(
        "INSERT INTO external_mappings (company_id, source, entity, external_id) VALUES ($1, $2, 'clients', 'CRM-1')",
        [companyId, source],
      );
    try {
      await reserve(1, 'HUBSPOT');

      await expect(reserve(1, 'HUBSPOT')).rejects.toMatchObject({
        driverError: expect.objectContaining({ code: '23505', constraint: 'external_mappings_key' }),
      });
      await expect(reserve(2, 'HUBSPOT')).resolves.toBeDefined();
      await expect(reserve(1, 'ZOHO')).resolves.toBeDefined();
    } finally {
      await dataSource.destroy();
    }
  });

  describe('GET /v2/integrations/{entity}/{external_id}?source=', () => {
    let dataSource: DataSource;
    const lookUp = (path: string, companyId = 1, roleId = 1) =>
      service.app.inject({
        method: 'GET',
        url: `/v2/integrations/${path}`,
        headers: { authorization: `Bearer ${signTestToken({ keys, companyId, roleId })}` },
      });

    beforeAll(async () => {
      dataSource = await new DataSource(integrationsOwnerDataSourceOptions(service.env)).initialize();
      await dataSource.query(
        `INSERT INTO external_mappings (company_id, source, entity, external_id, platform_id, state)
         VALUES (1, 'JIRA', 'projects', 'PROJ-42', 17, 'complete'), (2, 'JIRA', 'projects', 'OTHER-1', 99, 'complete')`,
      );
    });

    afterAll(() => dataSource.destroy());

    it("answers the mapping of the caller's company", async () => {
      const response = await lookUp('projects/PROJ-42?source=JIRA');

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        source: 'JIRA',
        entity: 'projects',
        external_id: 'PROJ-42',
        platform_id: 17,
        state: 'complete',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
    });

    it("answers another company's mapping exactly like a missing one", async () => {
      const foreign = await lookUp('projects/OTHER-1?source=JIRA');
      const otherSource = await lookUp('projects/PROJ-42?source=HUBSPOT');

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({
        error: 'ExternalIdNotFoundError',
        message: 'No projects with external id "OTHER-1" from JIRA',
        code: 'ZC001',
      });
      expect(otherSource.statusCode).toBe(404);
    });

    it.each([
      ['projects/PROJ-42', 'source must be one of'],
      ['projects/PROJ-42?source=TRELLO', 'source must be one of'],
      ['gadgets/PROJ-42?source=JIRA', 'entity must be one of'],
    ])('refuses %s with a ValidationError', async (path, message) => {
      const response = await lookUp(path);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'ValidationError',
        message: expect.stringContaining(message),
        code: 'ZC002',
      });
    });

    it('is for roles 1 and 2 only', async () => {
      expect((await lookUp('projects/PROJ-42?source=JIRA', 1, 3)).statusCode).toBe(403);
    });
  });
});
