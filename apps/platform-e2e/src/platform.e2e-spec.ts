import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createTestDatabase, generateTestKeyPair, signTestToken, type TestDatabase } from '@platform/testing';
import pg from 'pg';
import {
  freePort,
  migrateAll,
  provision,
  RunningService,
  runToCompletion,
  type ServiceName,
  stopAll,
} from './service-process';

const SERVICES: ServiceName[] = ['main-api', 'planner', 'integrations'];

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('the three services, as built and deployed', () => {
  const keys = generateTestKeyPair();
  const changeOriginKey = randomBytes(32).toString('base64');
  let database: TestDatabase;
  let mainApi: RunningService;
  let planner: RunningService;
  let integrations: RunningService;
  let mainApiEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase('platform');
    await migrateAll(database.url);
    mainApiEnv = {
      DATABASE_URL: database.url,
      JWT_PRIVATE_KEY: keys.privatePem,
      CHANGE_ORIGIN_KEY: changeOriginKey,
    };
    mainApi = await RunningService.start('main-api', mainApiEnv);
    await mainApi.waitUntilReady();
    planner = await RunningService.start('planner', {
      DATABASE_URL: database.url,
      MAIN_API_URL: mainApi.url,
      MAIN_API_TIMEOUT_MS: '500',
    });
    integrations = await RunningService.start('integrations', {
      DATABASE_URL: database.url,
      MAIN_API_URL: mainApi.url,
      INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CHANGE_ORIGIN_KEY: changeOriginKey,
      // As npm start does: the README's receiver listens on this machine over plain http.
      SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
      DELIVERY_POLL_MS: '200',
    });
    await Promise.all([planner.waitUntilReady(), integrations.waitUntilReady()]);
  });

  afterAll(async () => {
    try {
      // Fails the file with every answer that differed from the services' documents.
      await stopAll([mainApi, planner, integrations].filter(Boolean));
    } finally {
      await database.drop();
    }
  });

  it('migrates each schema once; a second run finds nothing pending', async () => {
    for (const service of SERVICES) {
      const again = await runToCompletion(service, 'migrate.js', { DATABASE_URL: database.url });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('applied: nothing pending');
    }
  });

  it('brings every service to /health/ready and /health/ready/self = 200, planner and integrations checking main-api in the first only', async () => {
    for (const service of [mainApi, planner, integrations]) {
      const ready = await fetch(`${service.url}/health/ready`);
      const self = await fetch(`${service.url}/health/ready/self`);
      expect([ready.status, self.status]).toEqual([200, 200]);
      const checked = (await ready.json()) as { details: object };
      expect(Object.keys(checked.details).sort()).toEqual(
        service === mainApi ? ['database'] : ['database', 'main-api'],
      );
      expect(Object.keys(((await self.json()) as { details: object }).details)).toEqual(['database']);
    }
  });

  it('issues a token for a provisioned company that all three services accept', async () => {
    const provisioned = await runToCompletion(
      'main-api',
      'provisioning/provision.cli.js',
      { DATABASE_URL: database.url },
      30000,
      ['--company', 'Platform Test Agency'],
    );
    expect(provisioned).toMatchObject({ code: 0, stderr: '' });
    const credentials = JSON.parse(provisioned.stdout) as {
      apiKey: string;
      clientSecret: string;
      email: string;
      password: string;
    };

    const tokenResponse = await fetch(`${mainApi.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        username: credentials.email,
        password: credentials.password,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const bearer = { authorization: `Bearer ${access_token}` };

    const me = await fetch(`${mainApi.url}/v1/users/me`, { headers: bearer });
    expect(me.status).toBe(200);
    // integrations fetched main-api's JWKS to accept the token: the lookup itself finds nothing.
    const lookup = await fetch(`${integrations.url}/v2/integrations/projects/PROJ-1?source=JIRA`, {
      headers: bearer,
    });
    expect(lookup.status).toBe(404);
    expect(await lookup.json()).toMatchObject({ error: 'ExternalIdNotFoundError', code: 'ZC001' });
    const anonymous = await fetch(`${integrations.url}/v2/integrations/projects/PROJ-1?source=JIRA`);
    expect(anonymous.status).toBe(401);
    // The planner accepts it too and forwards it to main-api, which knows no project 999999.
    const allocations = await fetch(`${planner.url}/allocation/getAllocations/999999`, { headers: bearer });
    expect(allocations.status).toBe(404);
    expect(await allocations.json()).toMatchObject({ error: 'ProjectNotFoundError' });
  });

  it("delivers a signed event to the README's receiver within seconds of a project rename in main-api", async () => {
    const { apiKey, clientSecret } = await provision<{ apiKey: string; clientSecret: string }>(database.url, [
      '--company',
      'Webhook Agency',
    ]);
    const tokenResponse = await fetch(`${mainApi.url}/v1/oauth/token?grant_type=client_credentials`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${apiKey}:${clientSecret}`).toString('base64')}` },
    });
    const { access_token } = (await tokenResponse.json()) as { access_token: string };
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    const post = async (url: string, body: object) =>
      (await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
        id: number | string;
        signing_secret?: string;
      };
    const clientId = (await post(`${mainApi.url}/v1/clients`, { name: 'Acme' })).id;
    const projectId = (await post(`${mainApi.url}/v1/projects`, { name: 'Spring', client_id: clientId })).id;
    const port = await freePort();
    const subscription = await post(`${integrations.url}/v2/integrations/subscriptions`, {
      metadata: { source: 'SLACK' },
      url: `http://127.0.0.1:${port}/hooks`,
      entities: ['projects'],
      api_key: apiKey,
      client_secret: clientSecret,
    });
    expect(subscription.signing_secret).toMatch(/^whsec_/);

    const receiver = spawn(
      process.execPath,
      [join(__dirname, '..', '..', '..', 'tools', 'local', 'webhook-receiver.mjs'), String(port)],
      { env: { PATH: process.env.PATH, WEBHOOK_SECRET: subscription.signing_secret } },
    );
    try {
      let printed = '';
      let refused = '';
      receiver.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      const listening = new Promise<void>((resolve) =>
        receiver.stderr.on('data', (chunk: Buffer) => {
          refused += chunk.toString();
          if (refused.includes('listening')) {
            resolve();
          }
        }),
      );
      await listening;
      const renamed = await fetch(`${mainApi.url}/v1/projects/${projectId}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ name: 'Spring launch' }),
      });
      expect(renamed.status).toBe(200);

      const deadline = Date.now() + 15000;
      while (!printed.includes('projects.updated') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [line] = printed.split('\n').filter((entry) => entry.includes('projects.updated'));
      expect(line).toMatch(/^msg_\S+ projects\.updated /);
      expect(JSON.parse(line.slice(line.indexOf('{')))).toMatchObject({
        entity: 'projects',
        id: projectId,
        kind: 'updated',
        changed_fields: ['name'],
      });
      // The receiver verified every signature it was sent.
      expect(refused).not.toContain('refused');
    } finally {
      receiver.kill('SIGTERM');
    }
  });

  describe('revocation (issue 19)', () => {
    interface Tokens {
      access_token: string;
      refresh_token: string;
    }
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    const login = async (username: string, password: string): Promise<Tokens> => {
      const response = await fetch(
        `${mainApi.url}/v1/oauth/token`,
        form({ grant_type: 'password', username, password }),
      );
      expect(response.status).toBe(200);
      return (await response.json()) as Tokens;
    };
    const clientLogin = async (apiKey: string, secret: string): Promise<Tokens> => {
      const response = await fetch(`${mainApi.url}/v1/oauth/token?grant_type=client_credentials`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${apiKey}:${secret}`).toString('base64')}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Tokens;
    };
    // One authenticated request per service that answers without main-api once the caller is
    // accepted: a 401 can then only come from that service's own revocation check.
    const statusesWith = async (token: string): Promise<number[]> => {
      const headers = { authorization: `Bearer ${token}` };
      return Promise.all([
        fetch(`${mainApi.url}/v1/oauth/token-status`, { headers }).then((response) => response.status),
        fetch(`${planner.url}/allocation/getAllocations/not-a-number`, { headers }).then(
          (response) => response.status,
        ),
        fetch(`${integrations.url}/v2/integrations/projects/PROJ-1?source=JIRA`, { headers }).then(
          (response) => response.status,
        ),
      ]);
    };
    const ACCEPTED = [204, 400, 404];
    const REVOKED = [401, 401, 401];

    it('ends revoked tokens on all three services within 60 s: user deleted or demoted, API client revoked, login revoked', async () => {
      const boss = await provision<{ apiKey: string; clientSecret: string; email: string; password: string }>(
        database.url,
        ['--company', 'Revocation Agency'],
      );
      const bossLogin = await login(boss.email, boss.password);
      const asBoss = {
        authorization: `Bearer ${bossLogin.access_token}`,
        'content-type': 'application/json',
      };
      const newDirector = async (name: string): Promise<{ id: number; email: string; password: string }> => {
        const email = `${name}@revocation.test`;
        const password = `pw-${randomBytes(8).toString('hex')}`;
        const response = await fetch(`${mainApi.url}/v1/users`, {
          method: 'POST',
          headers: asBoss,
          body: JSON.stringify({ first_name: name, last_name: 'D', email, role_id: 2, password }),
        });
        expect(response.status).toBe(201);
        return { ...((await response.json()) as { id: number }), email, password };
      };
      const leaver = await newDirector('leaver');
      const demoted = await newDirector('demoted');
      const replayed = await newDirector('replayed');
      const tokens = {
        'user deleted': (await login(leaver.email, leaver.password)).access_token,
        'role changed': (await login(demoted.email, demoted.password)).access_token,
        'API client revoked': (await clientLogin(boss.apiKey, boss.clientSecret)).access_token,
      };
      const replayedLogin = await login(replayed.email, replayed.password);
      const tokensAll = { ...tokens, 'login revoked (refresh token replayed)': replayedLogin.access_token };
      // Never used before the revocation: no service has it cached.
      const unseen = (await login(leaver.email, leaver.password)).access_token;
      // Each token in use on every service first, so every cache holds it.
      for (const token of Object.values(tokensAll)) {
        expect(await statusesWith(token)).toEqual(ACCEPTED);
      }

      const revokedAt = Date.now();
      expect(
        (
          await fetch(`${mainApi.url}/v1/users/${leaver.id}`, {
            method: 'DELETE',
            headers: { authorization: asBoss.authorization },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await fetch(`${mainApi.url}/v1/users/${demoted.id}`, {
            method: 'PUT',
            headers: asBoss,
            body: JSON.stringify({ role_id: 4 }),
          })
        ).status,
      ).toBe(200);
      // API clients are revoked by an operator (no route yet): the database triggers do the rest.
      await sql(
        database.url,
        `UPDATE main_api.api_clients SET revoked_at = now() WHERE api_key = '${boss.apiKey}'`,
      );
      const refreshOnce = () =>
        fetch(`${mainApi.url}/v1/oauth/refreshtoken`, form({ refresh_token: replayedLogin.refresh_token }));
      expect((await refreshOnce()).status).toBe(200);
      expect((await refreshOnce()).status).toBe(400);

      expect(await statusesWith(unseen)).toEqual(REVOKED);
      const secondsToRevoke: Record<string, number> = {};
      await Promise.all(
        Object.entries(tokensAll).map(async ([reason, token]) => {
          while ((await statusesWith(token)).join() !== REVOKED.join()) {
            expect(Date.now() - revokedAt).toBeLessThan(60_000);
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
          secondsToRevoke[reason] = Math.round((Date.now() - revokedAt) / 1000);
        }),
      );
      // Visible in the test output: how long each revocation took to reach all three services.
      process.stdout.write(
        `revocation reached all three services after (s): ${JSON.stringify(secondsToRevoke)}\n`,
      );
      expect(Object.keys(secondsToRevoke)).toHaveLength(4);
    }, 90_000);
  });

  describe('under faults', () => {
    const bearer = () => ({
      authorization: `Bearer ${signTestToken({ keys, companyId: 1, roleId: 1, subject: 'user:1' })}`,
    });

    it('survives PostgreSQL killing its connections mid-traffic: clean errors, then the pool recovers', async () => {
      const burst = () =>
        Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(`${mainApi.url}/v1/clients?perPage=50`, { headers: bearer() }).then(async (response) => ({
              status: response.status,
              body: (await response.json()) as { code?: string },
            })),
          ),
        );
      const during = burst();
      // Only this suite's database: other suites on the same server run in parallel under `npm test`.
      await sql(
        database.url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'main-api' AND datname = current_database() AND pid <> pg_backend_pid()",
      );
      const answers = await during;

      for (const answer of answers) {
        expect([200, 500]).toContain(answer.status);
        if (answer.status === 500) {
          expect(answer.body.code).toBe('AC500');
        }
      }
      const after = await burst();
      expect(after.every((answer) => answer.status === 200)).toBe(true);
      expect((await fetch(`${mainApi.url}/health/ready`)).status).toBe(200);
    });

    it('while main-api is down: /health/ready 503 naming main-api, /health/ready/self 200, reads 503 MainApiUnavailableError fast; recovers when it is back', async () => {
      const port = mainApi.port;
      const ended = await mainApi.stop();
      expect(ended.code).toBe(0);

      for (const consumer of [planner, integrations]) {
        const ready = await fetch(`${consumer.url}/health/ready`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toMatchObject({
          status: 'error',
          info: { database: { status: 'up' } },
          error: { 'main-api': { status: 'down' } },
        });
        // The readiness probe's endpoint: the pod stays in its Service's endpoints, so clients get
        // the designed 503 body below, not the ingress's error page.
        const self = await fetch(`${consumer.url}/health/ready/self`);
        expect(self.status).toBe(200);
        expect(await self.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
      }
      expect(await fetch(`${planner.url}/health/live`).then((live) => live.status)).toBe(200);
      const started = Date.now();
      const read = await fetch(`${planner.url}/allocation/getAllocations/1`, { headers: bearer() });
      expect(read.status).toBe(503);
      expect(await read.json()).toMatchObject({ error: 'MainApiUnavailableError' });
      expect(Date.now() - started).toBeLessThan(1500);

      mainApi = await RunningService.start('main-api', mainApiEnv, port);
      await mainApi.waitUntilReady();
      // /health/ready checks main-api's liveness directly, not through the breaker.
      await Promise.all([planner.waitUntilReady(10000), integrations.waitUntilReady(10000)]);
      // An open breaker answers 503 until its cooldown ends; then the read reaches main-api again.
      let back = 0;
      for (const deadline = Date.now() + 10000; back !== 404 && Date.now() < deadline;) {
        back = (await fetch(`${planner.url}/allocation/getAllocations/999999`, { headers: bearer() })).status;
        if (back !== 404) {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      expect(back).toBe(404);
    });

    it('on SIGTERM under load finishes the requests in flight, accepts no new ones, and exits 0', async () => {
      const inFlight = Array.from({ length: 30 }, () =>
        fetch(`${integrations.url}/v2/integrations/projects/PROJ-X?source=JIRA`, { headers: bearer() })
          .then((response) => response.status)
          .catch(() => 'refused' as const),
      );
      // SIGTERM once the service answers this wave (one answer back), the rest still in flight: a
      // fixed 20 ms wait sometimes stopped it before any request had reached it (CI, 2026-11-27).
      await Promise.race(inFlight);

      const ended = await integrations.stop();
      const statuses = await Promise.all(inFlight);

      expect(ended.code).toBe(0);
      // Each request was either answered in full (404: no such mapping) or never accepted.
      for (const status of statuses) {
        expect([404, 503, 'refused']).toContain(status);
      }
      expect(statuses.filter((status) => status === 404).length).toBeGreaterThan(0);
      await expect(fetch(`${integrations.url}/health/live`)).rejects.toThrow();
    });
  });
});

describe('a service with bad configuration', () => {
  it.each([
    [
      'planner',
      { DATABASE_URL: 'postgres://x@127.0.0.1/x' },
      'planner: invalid configuration: MAIN_API_URL must be',
    ],
    [
      'main-api',
      { DATABASE_URL: 'postgres://x@127.0.0.1/x', PORT: 'eighty' },
      'main-api: invalid configuration: PORT must be an integer',
    ],
    [
      'main-api',
      { DATABASE_URL: 'postgres://x@127.0.0.1/x' },
      'main-api: invalid configuration: JWT_PRIVATE_KEY (PEM) or JWT_PRIVATE_KEY_FILE',
    ],
    [
      'integrations',
      {
        MAIN_API_URL: 'http://127.0.0.1:3000',
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: randomBytes(32).toString('base64'),
      },
      'integrations: invalid configuration: DATABASE_URL must be',
    ],
  ] as const)('%s stops at once with one line naming the variable', async (service, env, expected) => {
    const result = await runToCompletion(service, 'main.js', env);

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(expected)]);
  });

  it('the migrate command stops the same way', async () => {
    const result = await runToCompletion('planner', 'migrate.js', { DATABASE_URL: 'mysql://nope' });

    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^planner: invalid configuration: DATABASE_URL must be/);
  });

  it('a database that cannot be reached stops the service with a clear line, not a hang', async () => {
    const result = await runToCompletion(
      'main-api',
      'main.js',
      {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        JWT_PRIVATE_KEY: generateTestKeyPair().privatePem,
      },
      30000,
    );

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/main-api: failed to start: .*ECONNREFUSED/);
  });
});
