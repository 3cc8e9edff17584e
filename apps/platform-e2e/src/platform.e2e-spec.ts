import { createTestDatabase, generateTestKeyPair, type TestDatabase } from '@platform/testing';
import { RunningService, runToCompletion, type ServiceName } from './service-process';

const SERVICES: ServiceName[] = ['main-api', 'planner', 'integrations'];

describe('the three services, as built and deployed', () => {
  const keys = generateTestKeyPair();
  let database: TestDatabase;
  let mainApi: RunningService;
  let planner: RunningService;
  let integrations: RunningService;

  beforeAll(async () => {
    database = await createTestDatabase('platform');
    for (const service of SERVICES) {
      const migration = await runToCompletion(service, 'migrate.js', { DATABASE_URL: database.url });
      expect(migration).toMatchObject({ code: 0 });
    }
    mainApi = await RunningService.start('main-api', {
      DATABASE_URL: database.url,
      JWT_PRIVATE_KEY: keys.privatePem,
    });
    await mainApi.waitUntilReady();
    planner = await RunningService.start('planner', {
      DATABASE_URL: database.url,
      MAIN_API_URL: mainApi.url,
      MAIN_API_TIMEOUT_MS: '500',
    });
    integrations = await RunningService.start('integrations', {
      DATABASE_URL: database.url,
      MAIN_API_URL: mainApi.url,
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

  it('issues a token for a provisioned company that main-api and integrations accept', async () => {
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
  });

  it('stops main-api gracefully on SIGTERM, after which the planner is not ready (503)', async () => {
    const ended = await mainApi.stop();
    expect(ended.code === 0 || ended.signal === 'SIGTERM').toBe(true);

    const response = await fetch(`${planner.url}/health/ready`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { 'main-api': { status: 'down' } } });
    expect(await fetch(`${planner.url}/health/live`).then((live) => live.status)).toBe(200);
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
      { MAIN_API_URL: 'http://127.0.0.1:3000' },
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
