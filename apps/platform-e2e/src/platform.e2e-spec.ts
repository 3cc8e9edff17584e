import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createTestDatabase, generateTestKeyPair, signTestToken, type TestDatabase } from '@platform/testing';
import pg from 'pg';
import { freePort, RunningService, runToCompletion, type ServiceName } from './service-process';

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
  let database: TestDatabase;
  let mainApi: RunningService;
  let planner: RunningService;
  let integrations: RunningService;
  let mainApiEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase('platform');
    for (const service of SERVICES) {
      const migration = await runToCompletion(service, 'migrate.js', { DATABASE_URL: database.url });
      expect(migration).toMatchObject({ code: 0 });
    }
    mainApiEnv = { DATABASE_URL: database.url, JWT_PRIVATE_KEY: keys.privatePem };
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
      // As npm start does: the README's receiver listens on this machine over plain http.
      SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
      DELIVERY_POLL_MS: '200',
    });
    await Promise.all([planner.waitUntilReady(), integrations.waitUntilReady()]);
  });

  afterAll(async () => {
    await Promise.all([mainApi, planner, integrations].filter(Boolean).map((service) => service.stop()));
    await database.drop();
  });

  it('migrates each schema once; a second run finds nothing pending', async () => {
    for (const service of SERVICES) {
      const again = await runToCompletion(service, 'migrate.js', { DATABASE_URL: database.url });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('applied: nothing pending');
    }
  });

  it('brings every service to /health/ready = 200, planner and integrations checking main-api', async () => {
    for (const service of [mainApi, planner, integrations]) {
      const response = await fetch(`${service.url}/health/ready`);
      expect(response.status).toBe(200);
    }
    const plannerReadiness = (await (await fetch(`${planner.url}/health/ready`)).json()) as { info: object };
    expect(plannerReadiness.info).toHaveProperty('main-api.status', 'up');
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
    const provisioned = await runToCompletion(
      'main-api',
      'provisioning/provision.cli.js',
      { DATABASE_URL: database.url },
      30000,
      ['--company', 'Webhook Agency'],
    );
    const { apiKey, clientSecret } = JSON.parse(provisioned.stdout) as {
      apiKey: string;
      clientSecret: string;
    };
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

    it('answers 503 fast while main-api is down, and recovers when it is back', async () => {
      const port = mainApi.port;
      const ended = await mainApi.stop();
      expect(ended.code).toBe(0);

      const ready = await fetch(`${planner.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ error: { 'main-api': { status: 'down' } } });
      expect(await fetch(`${planner.url}/health/live`).then((live) => live.status)).toBe(200);
      const started = Date.now();
      const read = await fetch(`${planner.url}/allocation/getAllocations/1`, { headers: bearer() });
      expect(read.status).toBe(503);
      expect(await read.json()).toMatchObject({ error: 'MainApiUnavailableError' });
      expect(Date.now() - started).toBeLessThan(1500);

      mainApi = await RunningService.start('main-api', mainApiEnv, port);
      await mainApi.waitUntilReady();
      await planner.waitUntilReady(10000);
      const back = await fetch(`${planner.url}/allocation/getAllocations/999999`, { headers: bearer() });
      expect(back.status).toBe(404);
    });

    it('on SIGTERM under load finishes the requests in flight, accepts no new ones, and exits 0', async () => {
      const inFlight = Array.from({ length: 30 }, () =>
        fetch(`${integrations.url}/v2/integrations/projects/PROJ-X?source=JIRA`, { headers: bearer() })
          .then((response) => response.status)
          .catch(() => 'refused' as const),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));

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
