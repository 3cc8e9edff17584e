import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { signTestToken, startTestService, TEST_CHANGE_ORIGIN_KEY, type TestService } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
// A real main-api behind the service (test-only import, as in entities.e2e-spec.ts): its token
// status is the one a revocation really changes.
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';
import { MainApiProxy } from './support/main-api-proxy';

const TOKEN_STATUS = '/v1/oauth/token-status';

type TokenStatusFault = 'stall' | 'error';

/**
 * main-api's token status made to stall (no answer within the service's timeout) or fail (500);
 * `heal` answers again and drops the stalled connections.
 */
function tokenStatusFaults(proxy: MainApiProxy): { set(fault: TokenStatusFault): void; heal(): void } {
  const stalled: ServerResponse[] = [];
  return {
    set(fault) {
      proxy.answerInstead = (request, response) => {
        if (request.url !== TOKEN_STATUS) {
          return false;
        }
        if (fault === 'stall') {
          stalled.push(response);
        } else {
          response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"boom"}');
        }
        return true;
      };
    },
    heal() {
      proxy.answerInstead = undefined;
      for (const response of stalled.splice(0)) {
        response.destroy();
      }
    },
  };
}

describe('integrations: revocation fails closed while main-api cannot confirm a token (e2e)', () => {
  let main: MainApiTestApp;
  let proxy: MainApiProxy;
  let faults: ReturnType<typeof tokenStatusFaults>;
  let integrations: TestService<IntegrationsEnv>;
  let integrationsDb: DataSource;

  const send = (
    token: string,
    method: 'GET' | 'PUT',
    url: string,
    body?: object,
  ): Promise<LightMyRequestResponse> =>
    integrations.app.inject({
      method,
      url: `/v2/integrations${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { payload: body } : {}),
    });
  /** A token as main-api would issue it now: with the subject's current epoch. */
  const tokenFor = async (subject: string, roleId: number): Promise<string> => {
    const [row] = await main.dataSource.query<{ epoch: number }[]>(
      'SELECT epoch FROM main_api.subject_token_epochs WHERE subject = $1',
      [subject],
    );
    return signTestToken({
      keys: main.keys,
      subject,
      companyId: main.companies[0].companyId,
      roleId,
      claims: { epoch: row?.epoch ?? 0 },
    });
  };
  const credentials = () => ({
    api_key: main.companies[0].apiKey,
    client_secret: main.companies[0].clientSecret,
  });
  /** 503 in the service's body, with Retry-After: the token's status could not be confirmed. */
  const expectUnconfirmed = (response: LightMyRequestResponse): void => {
    expect({
      status: response.statusCode,
      retryAfter: Number(response.headers['retry-after']),
      body: response.json<object>(),
    }).toEqual({
      status: 503,
      retryAfter: expect.any(Number) as number,
      body: { error: 'MainApiUnavailableError', code: 'ZC003', message: expect.any(String) as string },
    });
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response.body).not.toContain('signing_secret');
  };
  const webhookSources = async (): Promise<unknown[]> =>
    integrationsDb.query<unknown[]>('SELECT source FROM webhook_sources');

  beforeAll(async () => {
    main = await startMainApiTestApp(['Revoked Agency']);
    proxy = await MainApiProxy.start(await main.listen());
    faults = tokenStatusFaults(proxy);
    integrations = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        MAIN_API_URL: proxy.server.url,
        // The token status is asked with min(this, 2 s): a stall is refused after 2 s. (The JWKS is
        // fetched with this timeout too: a cold main-api may take more than half a second.)
        MAIN_API_TIMEOUT_MS: '3000',
        MAIN_API_BREAKER_THRESHOLD: '1000',
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
      },
    });
    integrationsDb = await new DataSource(integrationsOwnerDataSourceOptions(integrations.env)).initialize();
  });

  afterAll(async () => {
    try {
      faults?.heal();
      await integrationsDb?.destroy();
      await integrations?.close();
    } finally {
      await proxy?.server.stop();
      await main?.close();
    }
  });

  it.each(['stall', 'error'] as const)(
    'a C-Level token revoked in main-api cannot set up a webhook source (no signing secret) while the token status answers "%s"; a token confirmed live keeps reading',
    async (fault: TokenStatusFault) => {
      const boss = main.companies[0];
      const revokedBoss = await tokenFor(`user:${boss.userId}`, 1);
      const reader = await tokenFor(`user:${boss.userId + 1000}`, 2);
      // Both confirmed live with main-api, as any token is on its first request.
      expect((await send(revokedBoss, 'GET', '/webhook-sources')).statusCode).toBe(200);
      expect((await send(reader, 'GET', '/subscriptions')).statusCode).toBe(200);

      // The boss is demoted (main-api moves the subject's epoch: the token is revoked there)...
      await main.dataSource.query('UPDATE main_api.users SET role_id = 2 WHERE id = $1', [boss.userId]);
      const direct = await main.service.app.inject({
        method: 'GET',
        url: TOKEN_STATUS,
        headers: { authorization: `Bearer ${revokedBoss}` },
      });
      expect(direct.statusCode).toBe(401);
      // ...and main-api's token status stalls or fails just then.
      faults.set(fault);
      const asked = proxy.asked(TOKEN_STATUS);

      // The route that answers a secret asks afresh: unconfirmed, so refused, and nothing is set up.
      expectUnconfirmed(await send(revokedBoss, 'PUT', '/webhook-sources/JIRA', credentials()));
      expect(proxy.asked(TOKEN_STATUS)).toBe(asked + 1);
      expect(await webhookSources()).toEqual([]);
      // A token never confirmed is refused too, on any route (it used to pass for 30 s).
      expectUnconfirmed(await send(await tokenFor(`user:${boss.userId + 2000}`, 2), 'GET', '/subscriptions'));
      // A token confirmed live within the last 30 s keeps reading, without asking main-api.
      expect((await send(reader, 'GET', '/subscriptions')).statusCode).toBe(200);

      // Once main-api answers again, the revoked token is refused (401) there and everywhere.
      faults.heal();
      for (const [method, url, body] of [
        ['PUT', '/webhook-sources/JIRA', credentials()],
        ['GET', '/webhook-sources', undefined],
      ] as const) {
        const refused = await send(revokedBoss, method, url, body);
        expect({ status: refused.statusCode, error: refused.json<{ error: string }>().error }).toEqual({
          status: 401,
          error: 'Unauthorized',
        });
      }
      expect(await webhookSources()).toEqual([]);
      expect((await send(reader, 'GET', '/subscriptions')).statusCode).toBe(200);

      // Back to C-Level for the next case (another epoch: tokens issued before it stay revoked).
      await main.dataSource.query('UPDATE main_api.users SET role_id = 1 WHERE id = $1', [boss.userId]);
    },
  );
});
