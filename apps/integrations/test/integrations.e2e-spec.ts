import {
  generateTestKeyPair,
  itRejectsBadBearerTokens,
  itServesTheOperationalEndpoints,
  signTestToken,
  startFakeMainApi,
  startTestService,
  TestProbeController,
  type FakeHttpServer,
  type TestService,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { IntegrationsEnv } from '../src/config/integrations.env';
import { integrationsDataSourceOptions } from '../src/database/integrations.data-source';
import { integrationsService } from '../src/integrations.service';

describe('integrations (e2e)', () => {
  const keys = generateTestKeyPair();
  let mainApi: FakeHttpServer;
  let service: TestService<IntegrationsEnv>;

  beforeAll(async () => {
    mainApi = await startFakeMainApi(keys.jwks);
    service = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsDataSourceOptions,
      env: { MAIN_API_URL: mainApi.url, MAIN_API_TIMEOUT_MS: '500' },
      extraControllers: [TestProbeController],
    });
  });

  afterAll(async () => {
    await service.close();
    await mainApi.stop();
  });

  itServesTheOperationalEndpoints({
    getApp: () => service.app,
    getEnv: () => service.env,
    dataSourceOptions: integrationsDataSourceOptions,
    openApiTitle: 'Integrations',
    notFoundBody: { error: 'NotFoundError', message: 'Cannot GET /no-such-route', code: 'ZC001' },
    malformedJsonBody: {
      error: 'ValidationError',
      message: expect.stringContaining('JSON') as unknown as string,
      code: 'ZC002',
    },
  });

  it('is not ready while main-api is down', async () => {
    mainApi.respondWith((_request, response) => response.writeHead(503).end());

    const ready = await service.app.inject({ method: 'GET', url: '/health/ready' });

    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ error: { 'main-api': { status: 'down' } } });
    mainApi.reset();
  });

  describe("authentication with keys from main-api's JWKS", () => {
    itRejectsBadBearerTokens({
      getApp: () => service.app,
      getKeys: () => keys,
      url: '/test-probe/principal',
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
        url: '/test-probe/integrations',
        headers: { authorization: `Bearer ${token}` },
      });

      expect(response.statusCode).toBe(status);
    });
  });

  it('keeps one mapping per company, source, entity and external id, in the database', async () => {
    const dataSource = await new DataSource(integrationsDataSourceOptions(service.env)).initialize();
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
});
