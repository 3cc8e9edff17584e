import { EnvValidationError, loadEnv } from '@platform/runtime';
import {
  generateTestKeyPair,
  itAuthenticatesEveryRoute,
  itRejectsBadBearerTokens,
  itServesTheOperationalEndpoints,
  signTestToken,
  startTestService,
  TestProbeController,
  type TestService,
} from '@platform/testing';
import { MainApiEnv } from '../src/config/main-api.env';
import { mainApiOwnerDataSourceOptions } from '../src/database/main-api.data-source';
import { mainApiService } from '../src/main-api.service';

describe('main-api (e2e)', () => {
  const keys = generateTestKeyPair();
  let service: TestService<MainApiEnv>;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiOwnerDataSourceOptions,
      env: { JWT_PRIVATE_KEY: keys.privatePem },
      extraControllers: [TestProbeController],
    });
  });

  afterAll(() => service.close());

  itServesTheOperationalEndpoints({
    getApp: () => service.app,
    getEnv: () => service.env,
    dataSourceOptions: mainApiOwnerDataSourceOptions,
    openApiTitle: 'Main API',
    committedOpenApi: 'openapi/main-api.json',
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

  itAuthenticatesEveryRoute({
    getApp: () => service.app,
    publicOperations: [
      'GET /health/live',
      'GET /health/ready',
      'GET /health/ready/self',
      'POST /v1/oauth/token',
      'POST /v1/oauth/refreshtoken',
      'POST /v1/oauth/revoke',
      'GET /v1/oauth/authorize',
      'POST /v1/oauth/authorize',
      'GET /v1/.well-known/jwks.json',
      'GET /v1/.well-known/oauth-authorization-server',
      'GET /.well-known/oauth-authorization-server',
      // A stream ticket stands for the token, which EventSource cannot send (issue 41).
      'GET /v1/events/stream',
      // Each token in the body is its own proof (the planner's streams' login check, issue 41).
      'POST /v1/oauth/token-status/batch',
    ],
  });

  describe('authentication with its own signing keys', () => {
    itRejectsBadBearerTokens({
      getApp: () => service.app,
      getKeys: () => keys,
      url: '/v1/test-probe/principal',
      unauthorizedBody: (message) => ({ status: 401, name: 'PlatformCustomError', code: 'AC005', message }),
    });

    it.each([
      ['setup', 2, 200],
      ['setup', 3, 403],
      ['delivery', 3, 200],
      ['delivery', 4, 403],
      ['integrations', 1, 200],
      ['integrations', 6, 403],
    ])('applies the role matrix: %s for role %i answers %i', async (probe, roleId, status) => {
      const token = signTestToken({ keys, roleId });

      const response = await service.app.inject({
        method: 'GET',
        url: `/v1/test-probe/${probe}`,
        headers: { authorization: `Bearer ${token}` },
      });

      expect(response.statusCode).toBe(status);
      if (status === 403) {
        expect(response.json()).toEqual({
          status: 403,
          name: 'PlatformCustomError',
          code: 'AC006',
          message: 'Your role does not allow this operation',
        });
      }
    });
  });
});
