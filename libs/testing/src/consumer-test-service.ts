import type { BaseServiceEnv } from '@platform/runtime';
import { startFakeMainApi, type FakeHttpServer } from './fake-http-server';
import { TestProbeController } from './test-probe.controller';
import { startTestService, type TestService, type TestServiceOptions } from './test-service';
import { generateTestKeyPair, type TestKeyPair } from './test-tokens';

export interface ConsumerTestService<Env extends BaseServiceEnv> extends TestService<Env> {
  /** The stand-in main-api: alive, publishing `keys` in its JWKS. */
  mainApi: FakeHttpServer;
  /** main-api's signing keys, for `signTestToken`. */
  keys: TestKeyPair;
}

/**
 * A service that depends on main-api (planner, integrations) under test: its own migrated database,
 * a fake main-api publishing test signing keys, and the test-probe routes.
 */
export async function startConsumerTestService<Env extends BaseServiceEnv>(
  options: Omit<TestServiceOptions<Env>, 'extraControllers'>,
): Promise<ConsumerTestService<Env>> {
  const keys = generateTestKeyPair();
  const mainApi = await startFakeMainApi(keys.jwks);
  try {
    const service = await startTestService({
      ...options,
      env: { MAIN_API_URL: mainApi.url, MAIN_API_TIMEOUT_MS: '500', ...options.env },
      extraControllers: [TestProbeController],
    });
    return {
      ...service,
      mainApi,
      keys,
      async close() {
        await service.close();
        await mainApi.stop();
      },
    };
  } catch (error) {
    await mainApi.stop();
    throw error;
  }
}
