import {
  itSurvivesFuzzingOfEveryOperation,
  signTestToken,
  startTestService,
  type TestService,
} from '@platform/testing';
// A real main-api behind the planner (test-only import, as in allocations.e2e-spec.ts).
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { PlannerEnv } from '../../planner/src/config/planner.env';
import { plannerOwnerDataSourceOptions } from '../../planner/src/database/planner.data-source';
import { plannerService } from '../../planner/src/planner.service';

describe('planner under fuzzing, with main-api behind it (e2e)', () => {
  let main: MainApiTestApp;
  let planner: TestService<PlannerEnv>;

  beforeAll(async () => {
    main = await startMainApiTestApp(['Fuzzed']);
    planner = await startTestService({
      definition: plannerService,
      envClass: PlannerEnv,
      dataSourceOptions: plannerOwnerDataSourceOptions,
      env: { MAIN_API_URL: await main.listen(), MAIN_API_BREAKER_THRESHOLD: '1000' },
    });
  });

  afterAll(async () => {
    await planner?.close();
    await main?.close();
  });

  itSurvivesFuzzingOfEveryOperation({
    getApp: () => planner.app,
    openApi: 'openapi/planner.json',
    runs: 150,
    authorization: () =>
      `Bearer ${signTestToken({ keys: main.keys, companyId: main.companies[0]?.companyId ?? 1, roleId: 1 })}`,
    expectErrorBody: (body) => {
      expect(Object.keys(body as object).sort()).toEqual(['error', 'message']);
    },
  });
});
