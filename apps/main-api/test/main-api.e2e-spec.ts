import { EnvValidationError, loadEnv } from '@platform/runtime';
import { itServesTheOperationalEndpoints, startTestService, type TestService } from '@platform/testing';
import { MainApiEnv } from '../src/config/main-api.env';
import { mainApiDataSourceOptions } from '../src/database/main-api.data-source';
import { mainApiService } from '../src/main-api.service';

describe('main-api (e2e)', () => {
  let service: TestService<MainApiEnv>;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiDataSourceOptions,
    });
  });

  afterAll(() => service.close());

  itServesTheOperationalEndpoints({
    getApp: () => service.app,
    getEnv: () => service.env,
    dataSourceOptions: mainApiDataSourceOptions,
    openApiTitle: 'Main API',
    notFoundBody: {
      status: 404,
      name: 'PlatformCustomError',
      code: 'AC003',
      message: 'Cannot GET /no-such-route',
    },
    malformedJsonBody: {
      status: 400,
      name: 'PlatformCustomError',
      code: 'AC002',
      message: expect.stringContaining('JSON') as unknown as string,
    },
  });

  it('serves its API under /v1 and keeps health outside it', async () => {
    const prefixed = await service.app.inject({ method: 'GET', url: '/v1/health/live' });

    expect(prefixed.statusCode).toBe(404);
  });

  it('refuses to start with a bad variable, naming it', () => {
    expect(() => loadEnv(MainApiEnv, { DATABASE_URL: service.database.url, PORT: 'eighty' })).toThrow(
      new EnvValidationError(['PORT must be an integer between 0 and 65535']),
    );
  });
});
