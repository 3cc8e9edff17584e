import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import {
  createPlatformSdk,
  dataOf,
  LoginEndedError,
  RefreshTokenSource,
  TokenEndpoint,
  type OutboundWebhook,
  type PlatformSdk,
} from '@platform/sdk';
import { createTestDatabase, generateTestKeyPair, type TestDatabase } from '@platform/testing';
import {
  freePort,
  migrateAll,
  provision,
  startPlatform,
  stopAll,
  type RunningService,
} from './service-process';

/** What `npm run provision` prints (the fields these tests read). */
interface Provisioned {
  companyId: number;
  apiKey: string;
  clientSecret: string;
}

/** The quota integrations runs with here: small enough that one burst goes past it. */
const INTEGRATIONS_QUOTA_PER_MINUTE = 60;

/**
 * The SDK (`@platform/sdk`) against the three built services, as an integrator would use it: a
 * token by client credentials, cursor pages, If-Match writes and their 412, a batch, Retry-After
 * after a quota's 429, a refresh-token login rotating, and a real webhook verified. Every answer
 * also passes the validating proxy of service-process.ts.
 */
describe('the SDK against the running services', () => {
  const keys = generateTestKeyPair();
  const changeOriginKey = randomBytes(32).toString('base64');
  let database: TestDatabase;
  let services: RunningService[] = [];
  let urls: { mainApiUrl: string; plannerUrl: string; integrationsUrl: string };
  let company: Provisioned;
  let sdk: PlatformSdk;

  beforeAll(async () => {
    database = await createTestDatabase('sdk');
    await migrateAll(database.url);
    const platform = await startPlatform(database.url, {
      jwtPrivateKey: keys.privatePem,
      changeOriginKey,
      extra: {
        integrations: {
          // The webhook receiver below listens on this machine over plain http.
          SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
          DELIVERY_POLL_MS: '200',
          QUOTA_REQUESTS_PER_MINUTE: String(INTEGRATIONS_QUOTA_PER_MINUTE),
        },
      },
    });
    services = platform.services;
    const { mainApi, planner, integrations } = platform;

    company = await provision<Provisioned>(database.url, ['--company', 'SDK Agency']);
    urls = { mainApiUrl: mainApi.url, plannerUrl: planner.url, integrationsUrl: integrations.url };
    sdk = createPlatformSdk({
      ...urls,
      auth: { apiKey: company.apiKey, clientSecret: company.clientSecret },
    });
  }, 60_000);

  afterAll(async () => {
    try {
      // Fails the file with every answer that differed from the services' documents.
      await stopAll(services);
    } finally {
      services = [];
      await database?.drop();
    }
  });

  async function createClient(name: string): Promise<number> {
    return dataOf(await sdk.mainApi.POST('/v1/clients', { body: { name } })).id;
  }

  it('gets a token by client credentials that all three services take', async () => {
    const token = await sdk.tokens.accessToken();
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as object;
    expect(claims).toMatchObject({ company_id: company.companyId, client_id: company.apiKey });

    const [clients, allocations, subscriptions] = await Promise.all([
      sdk.mainApi.GET('/v1/clients', { params: { query: { limit: 1 } } }),
      sdk.planner.GET('/allocation/getAllocations/{projectId}', { params: { path: { projectId: 999999 } } }),
      sdk.integrations.GET('/v2/integrations/subscriptions'),
    ]);
    // The planner knows no project 999999: a 404, so the token was taken.
    expect([clients.response.status, allocations.response.status, subscriptions.response.status]).toEqual([
      200, 404, 200,
    ]);
    // One grant served them all.
    expect(await sdk.tokens.accessToken()).toBe(token);
  });

  it('iterates GET /v1/clients?limit=2 page by page and sees every client once', async () => {
    const created = [];
    for (const name of ['Acme', 'Globex', 'Initech', 'Umbrella', 'Wayne']) {
      created.push(await createClient(`Cursor ${name}`));
    }
    const everyClient = dataOf(
      await sdk.mainApi.GET('/v1/clients', { params: { query: { page: 'false' } } }),
    );
    if (!Array.isArray(everyClient)) {
      throw new Error('page=false answered a page, not every client');
    }

    const seen: number[] = [];
    let pages = 0;
    for await (const page of sdk.cursorPages((cursor) =>
      sdk.mainApi.GET('/v1/clients', { params: { query: { limit: 2, cursor, sort: 'name' } } }),
    )) {
      pages += 1;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((client) => client.id));
    }
    const names: string[] = [];
    for await (const client of sdk.cursorItems((cursor) =>
      sdk.mainApi.GET('/v1/clients', {
        params: { query: { limit: 2, cursor, sort: 'name', fields: 'name' } },
      }),
    )) {
      names.push(client.name ?? '(no name)');
    }

    expect(seen).toHaveLength(everyClient.length);
    expect(new Set(seen)).toEqual(new Set(everyClient.map((client) => client.id)));
    expect(seen).toEqual(expect.arrayContaining(created));
    expect(pages).toBe(Math.ceil(everyClient.length / 2));
    expect(names).toEqual(everyClient.map((client) => client.name).sort());
  });

  it('reads a client with its ETag, updates it with If-Match, and meets a stale ETag with the current client', async () => {
    const id = await createClient('Northwind');
    const read = await sdk.readTagged(sdk.mainApi.GET('/v1/clients/{id}', { params: { path: { id } } }));
    expect(read.data).toMatchObject({ id, name: 'Northwind', version: 1 });
    expect(read.etag).toMatch(/^"1-/);

    const renamed = await sdk.writeIfMatch(read.etag, (headers) =>
      sdk.mainApi.PUT('/v1/clients/{id}', {
        params: { path: { id } },
        headers,
        body: { name: 'Northwind Foods' },
      }),
    );
    if (!renamed.written) {
      throw new Error(`the first edit met a 412: ${JSON.stringify(renamed.current)}`);
    }
    expect(renamed.data).toMatchObject({ name: 'Northwind Foods', version: 2 });
    expect(renamed.etag).toMatch(/^"2-/);

    // A second editor still holding the first read's tag.
    const stale = await sdk.writeIfMatch(read.etag, (headers) =>
      sdk.mainApi.PUT('/v1/clients/{id}', {
        params: { path: { id } },
        headers,
        body: { phone: '+1 555 0100' },
      }),
    );
    if (stale.written) {
      throw new Error('a write based on a stale ETag went through');
    }
    expect(stale.current).toMatchObject({ id, name: 'Northwind Foods', version: 2, phone: null });
    expect(stale.etag).toBe(renamed.etag);

    // Merged, and sent again on the tag the 412 gave.
    const merged = await sdk.writeIfMatch(stale.etag, (headers) =>
      sdk.mainApi.PUT('/v1/clients/{id}', {
        params: { path: { id } },
        headers,
        body: { phone: '+1 555 0100' },
      }),
    );
    expect(merged).toMatchObject({ written: true, data: { name: 'Northwind Foods', phone: '+1 555 0100' } });
  });

  it('runs a batch through the typed client: a dry run saves nothing, then the same batch for real', async () => {
    const batch = (dryRun: boolean, idempotencyKey: string) =>
      sdk.mainApi.POST('/v1/batch', {
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        body: {
          atomic: true,
          dry_run: dryRun,
          operations: [
            { ref: 'client', method: 'POST', path: '/v1/clients', body: { name: 'Batch Rockets' } },
            { method: 'POST', path: '/v1/brands', body: { name: 'Rocket Fuel', client_id: '{{client.id}}' } },
          ],
        },
      });
    const named = async () =>
      dataOf(
        await sdk.mainApi.GET('/v1/clients', {
          params: { query: { page: 'false', filters: JSON.stringify({ name: 'Batch Rockets' }) } },
        }),
      );

    const preview = dataOf(await batch(true, `sdk-dry-${randomBytes(4).toString('hex')}`));
    expect(preview).toMatchObject({ committed: false, dry_run: true });
    expect(preview.results.map((result) => result.status)).toEqual([201, 201]);
    expect(await named()).toEqual([]);

    const saved = await batch(false, `sdk-batch-${randomBytes(4).toString('hex')}`);
    expect(saved.response.status).toBe(200);
    const answer = dataOf(saved);
    expect(answer.committed).toBe(true);
    const [client, brand] = answer.results;
    expect(brand.body).toMatchObject({ name: 'Rocket Fuel', client_id: (client.body as { id: number }).id });
    expect(await named()).toMatchObject([{ name: 'Batch Rockets' }]);
  });

  it('keeps a refresh-token login going, rotating its token, until main-api ends the login', async () => {
    const login = await new TokenEndpoint(urls.mainApiUrl).clientCredentials(
      company.apiKey,
      company.clientSecret,
    );
    const rotated: string[] = [];
    let now = Date.now();
    const source = new RefreshTokenSource(
      urls.mainApiUrl,
      { refreshToken: login.refresh_token, onRefreshToken: (next) => void rotated.push(next) },
      { now: () => now },
    );
    const loginSdk = createPlatformSdk({ ...urls, auth: source });

    // Concurrent first calls share one refresh; an hour later (expires_in) another one.
    const [first] = await Promise.all([source.accessToken(), source.accessToken(), source.accessToken()]);
    // Two refreshes with one token would have been a replay, and main-api would have ended the login.
    expect(rotated).toHaveLength(1);
    now += login.expires_in * 1000;
    const second = await source.accessToken();
    expect(rotated).toHaveLength(2);
    expect(second).not.toBe(first);
    expect(source.refreshToken).toBe(rotated[1]);
    expect(
      (await loginSdk.mainApi.GET('/v1/clients', { params: { query: { limit: 1 } } })).response.status,
    ).toBe(200);

    // Someone replays the spent first refresh token: main-api ends the login, so the SDK's next
    // refresh (due after another hour) is refused, and the call says the login ended.
    const replay = await new TokenEndpoint(urls.mainApiUrl)
      .refresh(login.refresh_token)
      .catch((error: unknown) => error);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    now += login.expires_in * 1000;
    await expect(loginSdk.mainApi.GET('/v1/clients', { params: { query: { limit: 1 } } })).rejects.toThrow(
      LoginEndedError,
    );
    expect(source.refreshToken).toBeUndefined();
  });

  it('verifies a webhook that integrations delivers, with the signing secret of the subscription', async () => {
    const received: { verified?: OutboundWebhook; refused?: unknown }[] = [];
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        sdk
          .verifyWebhook(secret, request.headers, Buffer.concat(chunks))
          .then((verified) => received.push({ verified }))
          .catch((refused: unknown) => received.push({ refused }))
          .finally(() => response.writeHead(204).end());
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    let secret = '';
    try {
      const subscription = dataOf(
        await sdk.integrations.POST('/v2/integrations/subscriptions', {
          body: {
            metadata: { source: 'SLACK' },
            url: `http://127.0.0.1:${port}/hooks`,
            entities: ['clients'],
            payload: 'thin',
            api_key: company.apiKey,
            client_secret: company.clientSecret,
          },
        }),
      );
      secret = subscription.signing_secret;
      const id = await createClient('Hooked Foods');

      const deadline = Date.now() + 15_000;
      while (!received.some((entry) => entry.verified?.data.id === id) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(received.filter((entry) => entry.refused !== undefined)).toEqual([]);
      expect(received.map((entry) => entry.verified)).toContainEqual(
        expect.objectContaining({
          type: 'clients.created',
          data: expect.objectContaining({ entity: 'clients', id, kind: 'created' }),
        }),
      );
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  // Last: it leaves integrations' bucket empty for the next seconds.
  it("follows Retry-After past integrations' quota, so a burst completes", async () => {
    // A client of its own: its observer sees the 429s the retry middleware then follows.
    const burstSdk = createPlatformSdk({ ...urls, auth: sdk.tokens, retry: { maxAttempts: 6 } });
    const statuses: number[] = [];
    burstSdk.integrations.use({
      onResponse: ({ response }) => void statuses.push(response.status),
    });
    const list = () => burstSdk.integrations.GET('/v2/integrations/subscriptions');
    const first = await list();
    const remaining = Number(/;r=(\d+)/.exec(first.response.headers.get('ratelimit') ?? '')?.[1]);
    expect(remaining).toBeLessThan(INTEGRATIONS_QUOTA_PER_MINUTE);

    // Three more than the bucket holds: they wait for it to refill (a second a request).
    const answers = await Promise.all(Array.from({ length: remaining + 3 }, list));

    expect(answers.map((answer) => answer.response.status)).toEqual(answers.map(() => 200));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(2);
  });
});
