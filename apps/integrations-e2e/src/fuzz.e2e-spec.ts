import { randomBytes } from 'node:crypto';
import {
  itSurvivesFuzzingOfEveryOperation,
  signTestToken,
  startTestService,
  type TestService,
  TEST_CHANGE_ORIGIN_KEY,
} from '@platform/testing';
import { DataSource } from 'typeorm';
// A real main-api behind the service (test-only import, as in entities.e2e-spec.ts).
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';

describe('integrations under fuzzing, with main-api behind it (e2e)', () => {
  let main: MainApiTestApp;
  let integrations: TestService<IntegrationsEnv>;

  beforeAll(async () => {
    main = await startMainApiTestApp(['Fuzzed']);
    integrations = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        MAIN_API_URL: await main.listen(),
        MAIN_API_BREAKER_THRESHOLD: '1000',
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
      },
    });
  });

  afterAll(async () => {
    await integrations?.close();
    await main?.close();
  });

  itSurvivesFuzzingOfEveryOperation({
    getApp: () => integrations.app,
    openApi: 'openapi/integrations.json',
    authorization: () =>
      `Bearer ${signTestToken({ keys: main.keys, companyId: main.companies[0]?.companyId ?? 1, roleId: 1 })}`,
    expectErrorBody: (body) => {
      expect(Object.keys(body as object).sort()).toEqual(['code', 'error', 'message']);
    },
  });

  it('leaves no reservation pending: every create either completed or released its external id', async () => {
    const dataSource = await new DataSource(
      integrationsOwnerDataSourceOptions(integrations.env),
    ).initialize();
    try {
      const [row] = await dataSource.query<{ count: string }[]>(
        "SELECT count(*) FROM external_mappings WHERE state = 'pending'",
      );
      expect(Number(row?.count)).toBe(0);
    } finally {
      await dataSource.destroy();
    }
  });
});
