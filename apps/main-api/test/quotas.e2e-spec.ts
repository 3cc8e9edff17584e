import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/**
 * Per-company quotas (issue 36): announced on every authenticated answer, 429 with Retry-After in
 * main-api's error body past them, and one company's flood never refuses or queues another's.
 */
describe('main-api quotas (e2e)', () => {
  let app: MainApiTestApp;
  let noisy: number;
  let quiet: number;

  beforeAll(async () => {
    // The first company provisioned is 1 in a fresh database; its override is 20 a minute.
    app = await startMainApiTestApp(['Noisy', 'Quiet'], {
      QUOTA_REQUESTS_PER_MINUTE: '600',
      QUOTA_COMPANY_OVERRIDES: '1:20',
    });
    [noisy, quiet] = app.companies.map((company) => company.companyId);
    expect(noisy).toBe(1);
  });

  afterAll(() => app.close());

  it('announces the quota and what is left of it with the IETF RateLimit fields', async () => {
    const answer = await app.call('GET', '/clients', undefined, { company: quiet });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['ratelimit-policy']).toBe('"tenant";q=600;w=60');
    expect(answer.headers.ratelimit).toMatch(/^"tenant";r=59[0-9];t=[0-9]+$/);
    // Errors too: a 404 counts and says so.
    const missing = await app.call('GET', '/clients/999999', undefined, { company: quiet });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.ratelimit).toMatch(/^"tenant";r=\d+;t=\d+$/);
  });

  it("refuses a company past its quota with 429 and Retry-After, while another's requests all go through", async () => {
    // The noisy company floods with 60 requests at once; the quiet one sends 40 at the same time.
    const [flood, others] = await Promise.all([
      Promise.all(
        Array.from({ length: 60 }, () => app.call('GET', '/clients', undefined, { company: noisy })),
      ),
      Promise.all(
        Array.from({ length: 40 }, () => app.call('GET', '/clients', undefined, { company: quiet })),
      ),
    ]);

    const refused = flood.filter((answer) => answer.statusCode === 429);
    expect(flood.filter((answer) => answer.statusCode === 200).length).toBeLessThanOrEqual(20);
    expect(refused.length).toBeGreaterThanOrEqual(40);
    expect(refused[0].json()).toMatchObject({ status: 429, name: 'PlatformCustomError', code: 'AC007' });
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused[0].headers.ratelimit).toMatch(/^"tenant";r=0;t=\d+$/);
    expect(others.map((answer) => answer.statusCode)).toEqual(others.map(() => 200));
  });

  it('refuses before the route runs: a refused write writes nothing', async () => {
    const refused = await app.call('POST', '/clients', { name: 'Not written' }, { company: noisy });
    expect(refused.statusCode).toBe(429);
    const written = await app.dataSource.query<{ count: string }[]>(
      `SELECT count(*) AS count FROM main_api.clients WHERE name = 'Not written'`,
    );
    expect(written[0].count).toBe('0');
  });

  it('counts a batch as one request per operation, before any of them runs', async () => {
    const left = (answer: { headers: Record<string, unknown> }): number =>
      Number(/r=(\d+)/.exec(String(answer.headers.ratelimit))?.[1]);
    const before = left(await app.call('GET', '/clients', undefined, { company: quiet }));
    const batch = await app.call(
      'POST',
      '/batch',
      {
        operations: Array.from({ length: 5 }, (_, index) => ({
          method: 'POST',
          path: '/v1/clients',
          body: { name: `Quota batch ${index}` },
        })),
      },
      { company: quiet },
    );
    expect(batch.statusCode).toBe(200);
    // One for the read above is already out of `before`; the batch costs 1 + 5, its operations no more.
    expect(left(batch)).toBeGreaterThanOrEqual(before - 6 - 1);
    expect(left(batch)).toBeLessThanOrEqual(before - 6 + 1);

    // The noisy company has no quota left: its batch is refused whole, nothing runs.
    const refused = await app.call(
      'POST',
      '/batch',
      { operations: [{ method: 'POST', path: '/v1/clients', body: { name: 'Batch not written' } }] },
      { company: noisy },
    );
    expect(refused.statusCode).toBe(429);
    const written = await app.dataSource.query<{ count: string }[]>(
      `SELECT count(*) AS count FROM main_api.clients WHERE name = 'Batch not written'`,
    );
    expect(written[0].count).toBe('0');
  });

  it('leaves public routes (the token endpoint has its own throttle) uncounted', async () => {
    const answer = await app.service.app.inject({ method: 'GET', url: '/v1/.well-known/jwks.json' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.ratelimit).toBeUndefined();
  });
});
