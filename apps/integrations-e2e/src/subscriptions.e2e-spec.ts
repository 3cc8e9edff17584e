import { CHANGE_FEED_ENTITIES, SUBSCRIPTION_ENTITIES } from '@platform/contracts';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RetentionPruner } from '@platform/database';
import { SERVICE_SIGNATURE_HEADER, signServiceRequest } from '@platform/auth';
import { createServiceApp } from '@platform/runtime';
import {
  checkRowLevelSecurity,
  OpenApiContract,
  signTestToken,
  startTestService,
  TEST_CHANGE_ORIGIN_KEY,
  type TestService,
} from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
// A real main-api behind the service (test-only import, as in entities.e2e-spec.ts): its change
// feed is what the delivery worker follows.
import { changeEveryEntityKind } from '../../main-api/test/support/every-entity-kind';
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
// And a real planner: integrations follows its change feed too (subscriptions to allocations).
import { PlannerEnv } from '../../planner/src/config/planner.env';
import { plannerOwnerDataSourceOptions } from '../../planner/src/database/planner.data-source';
import { plannerService } from '../../planner/src/planner.service';
import { SecretBox } from '../../integrations/src/credentials/secret-box';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';
import { DeliveryAttempts } from '../../integrations/src/subscriptions/delivery/delivery-attempts';
import { DELIVERY_LOG } from '../../integrations/src/subscriptions/delivery/delivery-log.retention';
import {
  subscriptionSecretPlace,
  type SubscriptionSecret,
} from '../../integrations/src/subscriptions/subscription-secrets';
import { callIntegrations, type CallAs, type Method } from './support/call-integrations';
import { eventually } from './support/eventually';

type Body = Record<string, unknown>;

interface Payload {
  type: string;
  timestamp: string;
  data: {
    entity: string;
    id: number | string;
    user_id?: number | null;
    external_id: string | null;
    kind: string;
    changed_fields: string[];
    cursor: string;
    occurred_at: string;
    project_id?: number | null;
  };
}

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  webhookId: string;
  timestamp: number;
  verified: boolean;
  payload: Payload;
  answered: number;
}

interface Delivery {
  id: string;
  webhook_id: string;
  type: string;
  status: string;
  payload: Payload;
  attempts: {
    attempt: number;
    attempted_at: string;
    finished_at: string | null;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
  }[];
}

interface Subscription {
  id: string;
  status: string;
  failing_since: string | null;
  disabled_reason: string | null;
  signing_secret?: string;
}

/**
 * Verifies a delivery from the Standard Webhooks convention alone (standardwebhooks.com), not with
 * the service's code: HMAC-SHA256 keyed with the base64 secret after `whsec_`, over
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, compared with every `v1,<base64>` of the header;
 * and a timestamp within five minutes.
 */
function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    return false;
  }
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
    return false;
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * The external system: a plain node:http server on 127.0.0.1 that checks signatures with the
 * secret of each path's subscription and processes each webhook-id once (a delivery it already
 * processed is acknowledged and ignored, as the convention asks of receivers).
 */
class Receiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  /** webhook-ids processed, once each. */
  readonly processed = new Map<string, Payload>();
  /** The status to answer; 2xx processes the event. */
  answer: (path: string, webhookId: string, seen: number) => number = () => 204;
  private server?: Server;

  private constructor(public port: number) {}

  static async start(port = 0): Promise<Receiver> {
    const receiver = new Receiver(port);
    await receiver.listen();
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  requestsFor(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  async listen(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = request.url ?? '/';
        const webhookId = String(request.headers['webhook-id']);
        const verified = verifyStandardWebhook(this.secrets.get(path) ?? '', request.headers, body);
        const seen = this.received.filter((earlier) => earlier.webhookId === webhookId).length;
        const status = verified ? this.answer(path, webhookId, seen) : 401;
        const payload = JSON.parse(body) as Payload;
        this.received.push({
          path,
          headers: request.headers,
          body,
          webhookId,
          timestamp: Number(request.headers['webhook-timestamp']),
          verified,
          payload,
          answered: status,
        });
        if (status >= 200 && status < 300 && !this.processed.has(webhookId)) {
          this.processed.set(webhookId, payload);
        }
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }
}

/** How many 2xx answers the receiver gave each webhook-id: the platform stops after the first. */
function successesById(requests: Received[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests.filter((candidate) => candidate.answered < 300)) {
    counts.set(request.webhookId, (counts.get(request.webhookId) ?? 0) + 1);
  }
  return counts;
}

const ENCRYPTION_KEY = randomBytes(32).toString('base64');

function integrationsEnv(
  mainApiUrl: string,
  plannerUrl: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    MAIN_API_URL: mainApiUrl,
    PLANNER_URL: plannerUrl,
    MAIN_API_TIMEOUT_MS: '3000',
    MAIN_API_BREAKER_THRESHOLD: '1000',
    INTEGRATIONS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
    // Any port of 127.0.0.1: the receivers of these tests.
    SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
    DELIVERY_POLL_MS: '50',
    DELIVERY_TIMEOUT_MS: '2000',
    DELIVERY_RETRY_SCHEDULE_MS: '100,200,300,400,500,500,500,500,500,500,500,500,500,500',
    ...overrides,
  };
}

describe('integrations: subscriptions and signed outbound webhooks (e2e)', () => {
  let main: MainApiTestApp;
  let mainApiUrl: string;
  let planner: TestService<PlannerEnv>;
  let plannerUrl: string;
  let integrations: TestService<IntegrationsEnv>;
  let integrationsDb: DataSource;
  let receiver: Receiver;
  let acme: number;
  let globex: number;

  const callService = (
    app: NestFastifyApplication,
    method: Method,
    url: string,
    body?: object,
    options?: CallAs,
  ) => callIntegrations(app, main.keys, acme, method, url, body, options);
  const call = (method: Method, url: string, body?: object, options?: CallAs) =>
    callService(integrations.app, method, url, body, options);
  const expectError = (response: LightMyRequestResponse, status: number, error: string, code: string) => {
    expect({ status: response.statusCode, ...response.json<Body>() }).toEqual({
      status,
      error,
      code,
      message: expect.any(String),
    });
  };
  const credentials = () => ({
    api_key: main.companies[0].apiKey,
    client_secret: main.companies[0].clientSecret,
  });
  const subscriptionBody = (url: string, extra: Body = {}): Body => ({
    metadata: { source: 'HUBSPOT' },
    url,
    entities: ['clients'],
    ...credentials(),
    ...extra,
  });
  /** A subscription of `source` to `path` on `target`, whose secret the receiver then knows. */
  const subscribe = async (
    path: string,
    extra: Body = {},
    target: Receiver = receiver,
    app: NestFastifyApplication = integrations.app,
  ): Promise<Subscription> => {
    const response = await callService(
      app,
      'POST',
      '/subscriptions',
      subscriptionBody(target.url(path), extra),
    );
    expect(response.statusCode).toBe(201);
    const subscription = response.json<Subscription>();
    target.secrets.set(path, subscription.signing_secret as string);
    return subscription;
  };
  const deliveriesOf = async (
    subscriptionId: string,
    app: NestFastifyApplication = integrations.app,
  ): Promise<Delivery[]> => {
    const response = await callService(app, 'GET', `/subscriptions/${subscriptionId}/deliveries?perPage=500`);
    expect(response.statusCode).toBe(200);
    return response.json<{ data: Delivery[] }>().data;
  };
  /** A change made directly in main-api (no integration source behind it). */
  const createClient = async (name: string): Promise<number> => {
    const response = await main.call('POST', '/clients', { name });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  };
  const renameClient = async (id: number, name: string): Promise<void> => {
    expect((await main.call('PUT', `/clients/${id}`, { name })).statusCode).toBe(200);
  };

  beforeAll(async () => {
    main = await startMainApiTestApp(['Acme', 'Globex']);
    mainApiUrl = await main.listen();
    planner = await startTestService({
      definition: plannerService,
      envClass: PlannerEnv,
      dataSourceOptions: plannerOwnerDataSourceOptions,
      env: { MAIN_API_URL: mainApiUrl, CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY },
    });
    await planner.app.listen({ port: 0, host: '127.0.0.1' });
    plannerUrl = `http://127.0.0.1:${(planner.app.getHttpServer().address() as AddressInfo).port}`;
    receiver = await Receiver.start();
    integrations = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: integrationsEnv(mainApiUrl, plannerUrl),
    });
    [acme, globex] = main.companies.map((company) => company.companyId) as [number, number];
    integrationsDb = await new DataSource(integrationsOwnerDataSourceOptions(integrations.env)).initialize();
  });

  afterAll(async () => {
    // Every webhook sent during the file is what the document's `webhooks.change` describes.
    const contract = await OpenApiContract.of('integrations');
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(
      receiver.received.flatMap((request) =>
        contract.problemsWithWebhook(
          (request.payload as { type?: string }).type === 'subscription.test' ? 'subscriptionTest' : 'change',
          request.payload,
        ),
      ),
    ).toEqual([]);
    await integrationsDb?.destroy();
    await integrations?.close();
    await receiver?.stop();
    await planner?.close();
    await main?.close();
  });

  afterEach(async () => {
    // Each test has its own subscriptions; the worker keeps running across tests.
    await integrationsDb.query('DELETE FROM webhook_subscriptions');
    receiver.answer = () => 204;
  });

  describe('subscriptions', () => {
    it('are created by C-Level users, with a signing secret shown once, and read by roles 1-2', async () => {
      const created = await call(
        'POST',
        '/subscriptions',
        subscriptionBody(receiver.url('/crud'), { entities: undefined, metadata: { source: 'JIRA' } }),
      );

      expect(created.statusCode).toBe(201);
      const subscription = created.json<Subscription & Body>();
      expect(subscription).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        source: 'JIRA',
        url: receiver.url('/crud'),
        entities: [],
        kinds: ['created', 'updated', 'deleted'],
        project_ids: [],
        payload: 'thin',
        api_key: main.companies[0].apiKey,
        status: 'active',
        failing_since: null,
        disabled_at: null,
        disabled_reason: null,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updated_at: expect.any(String),
        signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      expect(Buffer.from((subscription.signing_secret as string).slice(6), 'base64')).toHaveLength(32);
      const { signing_secret: _secret, ...shown } = subscription;

      expect((await call('GET', '/subscriptions')).json()).toEqual([shown]);
      expect((await call('GET', '/subscriptions?source=SLACK')).json()).toEqual([]);
      expect((await call('GET', `/subscriptions/${subscription.id}`, undefined, { role: 2 })).json()).toEqual(
        shown,
      );
      expect((await call('GET', '/subscriptions', undefined, { role: 3 })).statusCode).toBe(403);
      expect(
        (await call('POST', '/subscriptions', subscriptionBody(receiver.url('/crud-2')), { role: 2 }))
          .statusCode,
      ).toBe(403);
      expect(
        (await call('DELETE', `/subscriptions/${subscription.id}`, undefined, { role: 2 })).statusCode,
      ).toBe(403);
      const sealed = await integrationsDb.query<
        { signing_secret_sealed: string; client_secret_sealed: string }[]
      >('SELECT signing_secret_sealed, client_secret_sealed FROM webhook_subscriptions');
      expect(JSON.stringify(sealed)).not.toContain(subscription.signing_secret as string);
      expect(JSON.stringify(sealed)).not.toContain(main.companies[0].clientSecret);
      // Sealed for their row (issue 20): neither opens anywhere else, not even in the other column.
      const box = integrations.app.get(SecretBox);
      const place = (column: SubscriptionSecret) =>
        subscriptionSecretPlace({ companyId: main.companies[0].companyId, id: subscription.id }, column);
      const [row] = sealed;
      expect(box.open(row.signing_secret_sealed, place('signing_secret_sealed'))).toBe(
        subscription.signing_secret,
      );
      expect(box.open(row.client_secret_sealed, place('client_secret_sealed'))).toBe(
        main.companies[0].clientSecret,
      );
      expect(() => box.open(row.signing_secret_sealed, place('client_secret_sealed'))).toThrow();
      expect(() =>
        box.open(row.signing_secret_sealed, {
          ...place('signing_secret_sealed'),
          companyId: main.companies[1].companyId,
        }),
      ).toThrow();

      const removed = await call('DELETE', `/subscriptions/${subscription.id}`);

      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual(shown);
      expectError(
        await call('GET', `/subscriptions/${subscription.id}`),
        404,
        'SubscriptionNotFoundError',
        'ZC001',
      );
    });

    it("answers another company's subscription exactly like a missing one", async () => {
      const mine = await subscribe('/mine');
      const missing = await call('GET', `/subscriptions/${randomUUID()}`, undefined, { company: globex });
      const foreign = await call('GET', `/subscriptions/${mine.id}`, undefined, { company: globex });

      expect(foreign.statusCode).toBe(404);
      expect(foreign.json<Body>().error).toBe(missing.json<Body>().error);
      expect(
        (await call('DELETE', `/subscriptions/${mine.id}`, undefined, { company: globex })).statusCode,
      ).toBe(404);
      expect(
        (await call('GET', `/subscriptions/${mine.id}/deliveries`, undefined, { company: globex }))
          .statusCode,
      ).toBe(404);
      expect((await call('GET', '/subscriptions', undefined, { company: globex })).json()).toEqual([]);
      expectError(await call('GET', '/subscriptions/not-a-uuid'), 400, 'ValidationError', 'ZC002');
    });

    it.each([
      ['no metadata', { metadata: undefined }],
      ['an unknown source', { metadata: { source: 'MYSPACE' } }],
      ['no url', { url: undefined }],
      ['a url that is not a string', { url: 42 }],
      ['an over-long url', { url: `https://hooks.example.com/${'a'.repeat(2048)}` }],
      ['an unknown entity', { entities: ['invoices'] }],
      ['an entity twice', { entities: ['clients', 'clients'] }],
      ['no kind', { kinds: [] }],
      ['an unknown kind', { kinds: ['archived'] }],
      ['no api_key', { api_key: undefined }],
      ['no client_secret', { client_secret: undefined }],
      ['project_ids that are not ids', { project_ids: ['12'] }],
      ['a project twice', { project_ids: [12, 12] }],
      ['project_ids that is not an array', { project_ids: 12 }],
      ['an unknown payload', { payload: 'full' }],
    ])('refuses %s with ValidationError ZC002', async (_case, change) => {
      const body = { ...subscriptionBody(receiver.url('/invalid')), ...change };

      expectError(await call('POST', '/subscriptions', body), 400, 'ValidationError', 'ZC002');
    });

    it('checks the API client with main-api: working, of your company', async () => {
      const wrongSecret = await call(
        'POST',
        '/subscriptions',
        subscriptionBody(receiver.url('/api-client'), { client_secret: 'wrong' }),
      );
      const foreign = await call(
        'POST',
        '/subscriptions',
        subscriptionBody(receiver.url('/api-client'), {
          api_key: main.companies[1].apiKey,
          client_secret: main.companies[1].clientSecret,
        }),
      );

      expectError(wrongSecret, 400, 'ValidationError', 'ZC002');
      expect(wrongSecret.json<Body>().message).toContain('api_key');
      expectError(foreign, 400, 'ValidationError', 'ZC002');
      expect(foreign.json<Body>().message).toContain('another company');
      expect((await call('GET', '/subscriptions')).json()).toEqual([]);
    });

    it('checks the API client before looking the target up: a refused one learns nothing of the name (issue 33)', async () => {
      // .invalid never resolves (RFC 6761): checked first, it would answer with a refusal of url.
      const response = await call(
        'POST',
        '/subscriptions',
        subscriptionBody('https://nowhere.invalid/hook', { client_secret: 'wrong' }),
      );

      expectError(response, 400, 'ValidationError', 'ZC002');
      expect(response.json<Body>().message).toContain('api_key');
      expect(response.json<Body>().message).not.toContain('nowhere.invalid');
    });

    it('keeps one subscription per source and url', async () => {
      await subscribe('/twice');

      const again = await call('POST', '/subscriptions', subscriptionBody(receiver.url('/twice')));

      expectError(again, 422, 'DuplicateSubscriptionError', 'ZC002');
      expect(
        (
          await call(
            'POST',
            '/subscriptions',
            subscriptionBody(receiver.url('/twice'), { metadata: { source: 'ZOHO' } }),
          )
        ).statusCode,
      ).toBe(201);
    });
  });

  describe('target URLs (OWASP API7, SSRF)', () => {
    it.each([
      ['https to a private address', 'https://10.0.0.1/hook', '10.0.0.1 is a private address'],
      ['https to a name resolving to loopback', 'https://localhost/hook', 'loopback'],
      ['plain http not allow-listed', 'http://hooks.example.com/hook', 'must use https'],
      ['plain http to another local origin', 'http://localhost:8080/hook', 'must use https'],
      ['credentials in the URL', 'https://user:pass@hooks.example.com/hook', 'credentials'],
      ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', 'link-local'],
      ['IPv6 loopback', 'https://[::1]/hook', 'loopback'],
      ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook', 'IPv4-mapped form of 127.0.0.1'],
      ['a carrier-grade NAT address', 'https://100.64.1.1/hook', 'carrier-grade NAT'],
      ['a unique local IPv6 address', 'https://[fd00::1]/hook', 'unique local'],
      ['not a URL', 'hooks.example.com/hook', 'absolute URL'],
      ['another scheme', 'file:///etc/passwd', 'must use https'],
    ])('refuses %s: 400 naming url and why', async (_case, url, reason) => {
      const response = await call('POST', '/subscriptions', subscriptionBody(url));

      expectError(response, 400, 'ValidationError', 'ZC002');
      expect(response.json<Body>().message).toMatch(/^url/);
      expect(response.json<Body>().message).toContain(reason);
    });

    it('refuses a target at delivery time too: a failed attempt that reaches nothing', async () => {
      const subscription = await subscribe('/rebound');
      // As if its host now resolved to an internal address.
      await integrationsDb.query(
        "UPDATE webhook_subscriptions SET url = 'https://10.0.0.1/hook' WHERE id = $1",
        [subscription.id],
      );

      await createClient('Rebinding');

      const [delivery] = await eventually('a refused attempt', async () => {
        const deliveries = await deliveriesOf(subscription.id);
        return deliveries[0]?.attempts.some((attempt) => attempt.finished_at) ? deliveries : undefined;
      });
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts[0]).toMatchObject({
        attempt: 1,
        status_code: null,
        error: expect.stringContaining('target refused: url: 10.0.0.1 is a private address'),
      });
      expect(receiver.requestsFor('/rebound')).toEqual([]);
    });
  });

  describe('delivery', () => {
    it('signs each delivery per Standard Webhooks, with the external id of the subscriber', async () => {
      const created = await call('POST', '/clients', {
        metadata: { source: 'JIRA' },
        id: 'CLI-SIG',
        name: 'Signed',
      });
      expect(created.statusCode).toBe(201);
      const clientId = created.json<{ id: number }>().id;
      const subscription = await subscribe('/signed', { metadata: { source: 'JIRA' } });

      await renameClient(clientId, 'Signed and sealed');

      const [request] = await eventually(
        'the rename',
        () => receiver.requestsFor('/signed').length > 0 && receiver.requestsFor('/signed'),
      );
      expect(request.verified).toBe(true);
      expect(request.webhookId).toMatch(/^msg_[0-9a-f-]{36}$/);
      expect(Math.abs(request.timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(request.payload).toEqual({
        type: 'clients.updated',
        timestamp: request.payload.data.occurred_at,
        data: {
          entity: 'clients',
          id: clientId,
          external_id: 'CLI-SIG',
          kind: 'updated',
          changed_fields: ['name'],
          cursor: expect.stringMatching(/^\d+$/),
          occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          project_id: null,
        },
      });
      const [delivery] = await eventually('the delivery marked delivered', async () => {
        const deliveries = await deliveriesOf(subscription.id);
        return deliveries[0]?.status === 'delivered' && deliveries;
      });
      expect(delivery).toMatchObject({
        webhook_id: request.webhookId,
        type: 'clients.updated',
        payload: request.payload,
        attempts: [{ attempt: 1, status_code: 204, error: null, duration_ms: expect.any(Number) }],
      });
      // Another secret, or a body changed on the way, does not verify.
      const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
      expect(verifyStandardWebhook(otherSecret, request.headers, request.body)).toBe(false);
      const secret = receiver.secrets.get('/signed') as string;
      expect(
        verifyStandardWebhook(
          secret,
          request.headers,
          request.body.replace('"kind":"updated"', '"kind":"deleted"'),
        ),
      ).toBe(false);
      expect(verifyStandardWebhook(secret, request.headers, request.body)).toBe(true);
    });

    it("marks in main-api's change feed every change made for a source, by REST or by webhook", async () => {
      const viaRest = await call('POST', '/clients', {
        metadata: { source: 'OKTA' },
        id: 'CLI-OKTA',
        name: 'Okta',
      });
      const setUp = await call('PUT', '/webhook-sources/GITHUB', credentials());
      const secret = setUp.json<{ signing_secret: string }>().signing_secret;
      const event = JSON.stringify({
        action: 'create',
        entity: 'clients',
        external_id: 'GH-ORIGIN',
        data: { name: 'From GitHub' },
      });
      const timestamp = Math.floor(Date.now() / 1000);
      const viaWebhook = await integrations.app.inject({
        method: 'POST',
        url: '/v2/integrations/webhooks/GITHUB',
        headers: {
          'content-type': 'application/json',
          'x-company-id': String(acme),
          'x-webhook-id': 'evt-origin',
          'x-webhook-timestamp': String(timestamp),
          'x-webhook-signature': `sha256=${createHmac('sha256', secret).update(`${timestamp}.${event}`).digest('hex')}`,
        },
        payload: event,
      });
      expect(viaRest.statusCode).toBe(201);
      expect(viaWebhook.json()).toMatchObject({ status: 'applied' });

      const feed = await main.call('GET', '/events?after=0&limit=1000');
      const origins = feed
        .json<{ data: { entity: string; id: number; kind: string; origin: string | null }[] }>()
        .data.filter((change) => change.entity === 'clients' && change.kind === 'created');
      expect(origins).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: viaRest.json<{ id: number }>().id, origin: 'OKTA' }),
          expect.objectContaining({
            id: viaWebhook.json<{ platform_id: number }>().platform_id,
            origin: 'GITHUB',
          }),
        ]),
      );
      await integrationsDb.query('DELETE FROM webhook_sources');
    });

    it('does not echo a change back to the source it came from, but sends it to the others', async () => {
      const jira = await subscribe('/echo-jira', { metadata: { source: 'JIRA' } });
      const slack = await subscribe('/echo-slack', { metadata: { source: 'SLACK' } });

      const created = await call('POST', '/clients', {
        metadata: { source: 'JIRA' },
        id: 'CLI-ECHO',
        name: 'Echo',
      });
      expect(created.statusCode).toBe(201);
      const clientId = created.json<{ id: number }>().id;
      await renameClient(clientId, 'Echo renamed in the platform');

      await eventually('both changes sent to SLACK', () => receiver.requestsFor('/echo-slack').length >= 2);
      await eventually('the rename to JIRA', () => receiver.requestsFor('/echo-jira').length >= 1);
      // The rename comes after the create in the feed: by now the create was read for both.
      const toJira = await deliveriesOf(jira.id);
      const toSlack = await deliveriesOf(slack.id);
      expect(toJira.map((delivery) => [delivery.type, delivery.payload.data.external_id])).toEqual([
        ['clients.updated', 'CLI-ECHO'],
      ]);
      expect(
        toSlack
          .map((delivery) => [delivery.type, delivery.payload.data.external_id])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      ).toEqual([
        ['clients.created', null],
        ['clients.updated', null],
      ]);
      expect(receiver.requestsFor('/echo-jira').map((request) => request.payload.type)).toEqual([
        'clients.updated',
      ]);
    });

    it('sends only the entities and kinds asked for', async () => {
      const subscription = await subscribe('/filtered', { entities: ['clients'], kinds: ['deleted'] });

      const clientId = await createClient('Short-lived');
      await renameClient(clientId, 'Short-lived, renamed');
      expect((await main.call('DELETE', `/clients/${clientId}`)).statusCode).toBe(200);

      const [request] = await eventually(
        'the deletion',
        () => receiver.requestsFor('/filtered').length > 0 && receiver.requestsFor('/filtered'),
      );
      expect(request.payload).toMatchObject({
        type: 'clients.deleted',
        data: { id: clientId, kind: 'deleted', changed_fields: [] },
      });
      expect((await deliveriesOf(subscription.id)).map((delivery) => delivery.type)).toEqual([
        'clients.deleted',
      ]);
    });

    it('delivers the kinds only main-api writes (issue 36): tasks and labels, with no external id', async () => {
      const subscription = await subscribe('/every-kind', {
        entities: ['tasks', 'labels'],
        kinds: ['created'],
      });

      const project = (
        await main.call('POST', '/projects', {
          name: 'Every kind',
          client_id: await createClient('Every kind'),
        })
      ).json<{ id: number }>().id;
      const task = (await main.call('POST', '/tasks', { project_id: project, name: 'Key visual' })).json<{
        id: number;
      }>().id;
      const label = (
        await main.call('POST', '/labels', { name: 'Urgent', color: '#ff0000', model: 'task' })
      ).json<{ id: number }>().id;

      const requests = await eventually(
        'the task and the label',
        () => receiver.requestsFor('/every-kind').length >= 2 && receiver.requestsFor('/every-kind'),
      );
      expect(
        requests.map((request) => [
          request.payload.type,
          request.payload.data.id,
          request.payload.data.external_id,
        ]),
      ).toEqual(
        expect.arrayContaining([
          ['tasks.created', task, null],
          ['labels.created', label, null],
        ]),
      );
      expect(requests).toHaveLength(2);
      expect((await deliveriesOf(subscription.id)).map((delivery) => delivery.type).sort()).toEqual([
        'labels.created',
        'tasks.created',
      ]);
    });

    it('keeps trying while the receiver is down, then delivers each event exactly once', async () => {
      const down = await Receiver.start();
      const port = down.port;
      await down.stop();
      const subscription = await subscribe('/down', {}, down);
      const ids = [await createClient('Down 1'), await createClient('Down 2'), await createClient('Down 3')];

      // Nobody listens: refused connections, then a receiver that answers 503 for a while.
      await eventually('a refused connection for each event', async () => {
        const deliveries = await deliveriesOf(subscription.id);
        return (
          deliveries.length === 3 &&
          deliveries.every((delivery) =>
            delivery.attempts.some((attempt) => attempt.error?.includes('ECONNREFUSED')),
          )
        );
      });
      expect(
        (await call('GET', `/subscriptions/${subscription.id}`)).json<Subscription>().failing_since,
      ).not.toBeNull();
      down.port = port;
      down.answer = (_path, _id, seen) => (seen < 1 ? 503 : 204);
      await down.listen();

      try {
        await eventually('every event processed', () => down.processed.size === 3);
        const deliveries = await eventually('every delivery marked delivered', async () => {
          const all = await deliveriesOf(subscription.id);
          return all.every((delivery) => delivery.status === 'delivered') && all;
        });

        expect([...down.processed.values()].map((payload) => payload.data.id).sort()).toEqual(
          [...ids].sort(),
        );
        expect([...successesById(down.received).values()]).toEqual([1, 1, 1]);
        expect(down.received.every((request) => request.verified)).toBe(true);
        for (const delivery of deliveries) {
          const requests = down.received.filter((request) => request.webhookId === delivery.webhook_id);
          expect(requests.map((request) => request.answered)).toEqual([503, 204]);
          expect(delivery.attempts.at(-2)).toMatchObject({ status_code: 503 });
          expect(delivery.attempts.at(-1)).toMatchObject({ status_code: 204, error: null });
          expect(delivery.attempts.map((attempt) => attempt.attempt)).toEqual(
            delivery.attempts.map((_attempt, index) => index + 1),
          );
        }
        expect((await call('GET', `/subscriptions/${subscription.id}`)).json<Subscription>()).toMatchObject({
          status: 'active',
          failing_since: null,
        });
      } finally {
        await down.stop();
      }
    });

    it('never makes the same attempt twice with two workers on one database', async () => {
      const second = await createServiceApp(integrationsService, integrations.env);
      // What each worker claimed: (delivery, attempt number) pairs.
      const claims = [integrations.app, second].map((app) => {
        const attempts = app.get(DeliveryAttempts);
        const claimed: string[] = [];
        const claim = attempts.claim.bind(attempts);
        jest.spyOn(attempts, 'claim').mockImplementation(async (limit) => {
          const batch = await claim(limit);
          claimed.push(...batch.map((attempt) => `${attempt.deliveryId}#${attempt.attempt}`));
          return batch;
        });
        return claimed;
      });
      try {
        const subscription = await subscribe('/pair');
        // The first request of each event fails, so every delivery needs a retry as well.
        receiver.answer = (path, _id, seen) => (path === '/pair' && seen === 0 ? 503 : 204);
        const ids: number[] = [];
        for (let i = 0; i < 20; i += 1) {
          ids.push(await createClient(`Pair ${i}`));
        }

        const deliveries = await eventually('all 20 delivered', async () => {
          const all = await deliveriesOf(subscription.id, second);
          return all.length === 20 && all.every((delivery) => delivery.status === 'delivered') && all;
        });

        const requests = receiver.requestsFor('/pair');
        expect(new Set(requests.map((request) => request.payload.data.id))).toEqual(new Set(ids));
        for (const delivery of deliveries) {
          expect(
            requests.filter((request) => request.webhookId === delivery.webhook_id).map((r) => r.answered),
          ).toEqual([503, 204]);
          expect(delivery.attempts.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
            [1, 503],
            [2, 204],
          ]);
        }
        const [{ count }] = await integrationsDb.query<{ count: string }[]>(
          'SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $1',
          [subscription.id],
        );
        expect(Number(count)).toBe(20);
        const [first, other] = claims;
        expect(first.filter((claim) => other.includes(claim))).toEqual([]);
        expect(first.length + other.length).toBe(40);
        expect(other.length).toBeGreaterThan(0);
      } finally {
        jest.restoreAllMocks();
        await second.close();
      }
    });

    it('replays a delivery on request (C-Level), with the same webhook-id', async () => {
      const subscription = await subscribe('/replay');
      await createClient('Replayed');
      const [delivered] = await eventually('the first delivery', async () => {
        const all = await deliveriesOf(subscription.id);
        return all[0]?.status === 'delivered' && all;
      });

      expect(
        (
          await call(
            'POST',
            `/subscriptions/${subscription.id}/deliveries/${delivered.id}/replay`,
            undefined,
            { role: 2 },
          )
        ).statusCode,
      ).toBe(403);
      expectError(
        await call('POST', `/subscriptions/${subscription.id}/deliveries/${randomUUID()}/replay`),
        404,
        'DeliveryNotFoundError',
        'ZC001',
      );
      expect(
        (
          await call(
            'POST',
            `/subscriptions/${subscription.id}/deliveries/${delivered.id}/replay`,
            undefined,
            {
              company: globex,
            },
          )
        ).statusCode,
      ).toBe(404);
      const replay = await call(
        'POST',
        `/subscriptions/${subscription.id}/deliveries/${delivered.id}/replay`,
      );

      expect(replay.statusCode).toBe(202);
      expect(replay.json()).toMatchObject({
        id: delivered.id,
        status: 'pending',
        webhook_id: delivered.webhook_id,
      });
      await eventually('the replay', () => receiver.requestsFor('/replay').length === 2);
      const [again] = await eventually('the replay recorded', async () => {
        const all = await deliveriesOf(subscription.id);
        return all[0]?.status === 'delivered' && all[0].attempts.length === 2 && all;
      });
      expect(receiver.requestsFor('/replay').map((request) => request.webhookId)).toEqual([
        delivered.webhook_id,
        delivered.webhook_id,
      ]);
      expect(again.attempts.map((attempt) => attempt.status_code)).toEqual([204, 204]);
    });

    it('lists deliveries by status, newest first, paginated', async () => {
      const subscription = await subscribe('/log');
      receiver.answer = (path) => (path === '/log' ? 500 : 204);
      await createClient('Log 1');
      await createClient('Log 2');
      await eventually('two failed attempts', async () => {
        const all = await deliveriesOf(subscription.id);
        return (
          all.length === 2 &&
          all.every((delivery) => delivery.attempts.some((attempt) => attempt.status_code === 500))
        );
      });

      const page = await call('GET', `/subscriptions/${subscription.id}/deliveries?status=pending&perPage=1`);
      const none = await call('GET', `/subscriptions/${subscription.id}/deliveries?status=delivered`);

      expect(page.statusCode).toBe(200);
      expect(page.json()).toMatchObject({ total: '2', perPage: 1, page: 1, lastPage: 2 });
      expect(page.json<{ data: Delivery[] }>().data[0].payload.data).toMatchObject({ entity: 'clients' });
      expect(none.json()).toMatchObject({ total: '0', data: [] });
      expectError(
        await call('GET', `/subscriptions/${subscription.id}/deliveries?status=lost`),
        400,
        'ValidationError',
        'ZC002',
      );
    });

    it('trims finished deliveries past DELIVERY_LOG_RETENTION_DAYS from the log, never pending ones', async () => {
      const subscription = await subscribe('/trim');
      receiver.answer = () => 204;
      await createClient('Trim 1');
      await createClient('Trim 2');
      await eventually('two deliveries delivered', async () => {
        const all = await deliveriesOf(subscription.id);
        return all.length === 2 && all.every((delivery) => delivery.status === 'delivered');
      });
      const [old, recent] = await deliveriesOf(subscription.id);
      await integrationsDb.query(
        `UPDATE webhook_deliveries SET updated_at = now() - interval '31 days' WHERE id = $1`,
        [old.id],
      );
      // A pending delivery as old as that stays: it has not been delivered yet.
      await integrationsDb.query(
        `UPDATE webhook_deliveries SET status = 'pending', updated_at = now() - interval '31 days',
           next_attempt_at = now() + interval '1 day', delivered_at = NULL
          WHERE id = $1`,
        [recent.id],
      );

      await integrations.app.get(RetentionPruner).runOnce([DELIVERY_LOG]);
      const [{ attempts }] = await integrationsDb.query<{ attempts: string }[]>(
        'SELECT count(*) AS attempts FROM webhook_delivery_attempts WHERE delivery_id = $1',
        [old.id],
      );

      expect((await deliveriesOf(subscription.id)).map((delivery) => delivery.id)).toEqual([recent.id]);
      expect(attempts).toBe('0');
    });

    it('reads the feed again from the start when main-api no longer holds its cursor (410)', async () => {
      const subscription = await subscribe('/expired');
      await createClient('Before the pruning');
      await eventually('the first delivery', async () => (await deliveriesOf(subscription.id)).length === 1);
      // As if main-api had pruned everything up to a cursor beyond the one this service holds.
      const [{ head }] = await main.dataSource.query<{ head: string }[]>(
        'SELECT max(cursor)::text AS head FROM change_events',
      );
      await integrationsDb.query('UPDATE feed_cursors SET last_cursor = 1 WHERE company_id = $1', [acme]);
      await main.dataSource.query(
        `INSERT INTO change_feed_watermarks (company_id, pruned_through) VALUES ($1, $2)
         ON CONFLICT (company_id) DO UPDATE SET pruned_through = EXCLUDED.pruned_through`,
        [acme, head],
      );

      try {
        const after = await createClient('After the pruning');

        await eventually('the later change', () =>
          receiver.requestsFor('/expired').some((request) => request.payload.data.id === after),
        );
        // Read again from 0, but nothing is queued (or sent) twice for the events already read.
        expect(await deliveriesOf(subscription.id)).toHaveLength(2);
        expect(receiver.requestsFor('/expired')).toHaveLength(2);
        const [{ last_cursor: cursor }] = await integrationsDb.query<{ last_cursor: string }[]>(
          'SELECT last_cursor::text AS last_cursor FROM feed_cursors WHERE company_id = $1',
          [acme],
        );
        expect(BigInt(cursor)).toBeGreaterThan(BigInt(head));
      } finally {
        await main.dataSource.query('DELETE FROM change_feed_watermarks WHERE company_id = $1', [acme]);
      }
    });

    it('sends nothing more once the subscription is deleted', async () => {
      const subscription = await subscribe('/gone');
      const control = await subscribe('/control');
      expect((await call('DELETE', `/subscriptions/${subscription.id}`)).statusCode).toBe(200);

      const clientId = await createClient('After the goodbye');

      await eventually('the control delivery', () =>
        receiver.requestsFor('/control').some((request) => request.payload.data.id === clientId),
      );
      expect(receiver.requestsFor('/gone')).toEqual([]);
      expect((await deliveriesOf(control.id)).length).toBe(1);
    });
  });

  describe('a subscription that keeps failing', () => {
    let failing: TestService<IntegrationsEnv>;

    beforeAll(async () => {
      failing = await startTestService({
        definition: integrationsService,
        envClass: IntegrationsEnv,
        dataSourceOptions: integrationsOwnerDataSourceOptions,
        env: integrationsEnv(mainApiUrl, plannerUrl, {
          DELIVERY_RETRY_SCHEDULE_MS: Array<string>(30).fill('50').join(','),
          SUBSCRIPTION_DISABLE_AFTER_MS: '400',
        }),
      });
    });

    afterAll(() => failing?.close());

    it('is disabled after failing continuously for SUBSCRIPTION_DISABLE_AFTER_MS, and gets nothing more', async () => {
      const broken = await subscribe('/broken', {}, receiver, failing.app);
      const healthy = await subscribe('/healthy', {}, receiver, failing.app);
      receiver.answer = (path) => (path === '/broken' ? 500 : 204);
      await createClient('Before');

      const disabled = await eventually('the subscription disabled', async () => {
        const found = (
          await callService(failing.app, 'GET', `/subscriptions/${broken.id}`)
        ).json<Subscription>();
        return found.status === 'disabled' && found;
      });
      expect(disabled).toMatchObject({
        failing_since: expect.any(String),
        disabled_reason: expect.stringMatching(
          /^deliveries failed continuously since .* \(last: HTTP 500\)$/,
        ),
        disabled_at: expect.any(String),
      });
      expect((await deliveriesOf(broken.id, failing.app)).map((delivery) => delivery.status)).toEqual([
        'failed',
      ]);
      expectError(
        await callService(
          failing.app,
          'POST',
          `/subscriptions/${broken.id}/deliveries/${(await deliveriesOf(broken.id, failing.app))[0].id}/replay`,
        ),
        422,
        'SubscriptionDisabledError',
        'ZC002',
      );
      const attemptsWhenDisabled = receiver.requestsFor('/broken').length;

      const after = await createClient('After');

      await eventually('the healthy subscription gets the later change', () =>
        receiver.requestsFor('/healthy').some((request) => request.payload.data.id === after),
      );
      expect((await deliveriesOf(broken.id, failing.app)).length).toBe(1);
      expect(receiver.requestsFor('/broken').length).toBe(attemptsWhenDisabled);
      expect((await deliveriesOf(healthy.id, failing.app)).length).toBe(2);
    });
  });
  it('row-level security: every integrations table forced, empty and unwritable without a scope, exactly its rows with one', async () => {
    const report = await checkRowLevelSecurity({
      ownerUrl: integrations.database.url,
      schema: 'integrations',
      runtimeRole: 'integrations_runtime',
      companyId: acme,
      otherCompanyId: globex,
    });

    expect(report.failures).toEqual([]);
    expect(report.tenantTables).toHaveLength(9);
    // By the end of the file acme has rows in four of them (mappings, feed cursor, inbound events and
    // their signatures): the reads are proven on real rows.
    expect(report.tablesWithRows.length).toBeGreaterThanOrEqual(4);
  });
  describe('filters, snapshots and test events (issue 36)', () => {
    const createdId = async (path: string, body: object): Promise<number> => {
      const response = await main.call('POST', path, body);
      expect(response.statusCode).toBe(201);
      return response.json<{ id: number }>().id;
    };
    /** A collaborator working 8 hours Monday to Friday, whom the planner can book. */
    const workingUser = async (): Promise<number> => {
      const user = await createdId('/users', {
        first_name: 'Booked',
        last_name: 'Person',
        email: `booked-${randomUUID()}@planner.test`,
        role_id: 4,
      });
      const week = [1, 2, 3, 4, 5].map((day) => ({
        day_of_week: day,
        daily_hours: 8,
        start_at: '09:00:00',
        end_at: '17:00:00',
      }));
      expect((await main.call('PUT', `/working-time/users/${user}`, { entries: week })).statusCode).toBe(200);
      return user;
    };
    /** A call to the planner as Acme's boss (a C-Level user). */
    const callPlanner = (method: Method, url: string, body?: object) =>
      planner.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${signTestToken({
            keys: main.keys,
            companyId: acme,
            roleId: 1,
            subject: `user:${main.companies[0].userId}`,
          })}`,
        },
        ...(body ? { payload: body } : {}),
      });
    const allocationBody = (userId: number, projectId: number, from: string, to: string) => ({
      userId,
      companyId: acme,
      resource: { typeId: 'Project', entityId: projectId },
      from,
      to,
      assignedByUserId: main.companies[0].userId,
      allocatedHours: 20,
    });
    const book = (userId: number, projectId: number, from: string, to: string) =>
      callPlanner('POST', '/allocation/saveAllocation', allocationBody(userId, projectId, from, to));

    it('keeps a sync job whole: both feeds and a subscription to every kind see a change of each', async () => {
      // The sync job's ways in: its place in main-api's feed and the planner's, and a subscription to
      // everything.
      const start = await main.call('GET', '/events?after=0&limit=1000');
      let after = start.json<{ next_cursor: string }>().next_cursor;
      const plannerStart = await callPlanner('GET', '/v2/events?after=0&limit=1000');
      const plannerAfter = plannerStart.json<{ next_cursor: string }>().next_cursor;
      await subscribe('/everything', { entities: [], payload: 'snapshot' });

      const changed = await changeEveryEntityKind(main, acme);
      expect([...changed.keys()].sort()).toEqual([...CHANGE_FEED_ENTITIES].sort());
      // The planner's kinds: a booking of the user just made (its working week is set), and a
      // placeholder for the project.
      expect(
        (await book(changed.get('users')!, changed.get('projects')!, '2027-03-01', '2027-03-05')).statusCode,
      ).toBe(200);
      const placeholder = await callPlanner('POST', '/v2/placeholders', {
        name: 'Designer to hire',
        project_id: changed.get('projects'),
      });
      expect(placeholder.statusCode).toBe(201);
      const placeholderId = placeholder.json<{ id: string }>().id;
      // A scenario applied: drafts are no events, the apply is one (an empty scenario changes nothing else).
      const scenario = await callPlanner('POST', '/v2/scenarios', { name: 'Nothing to change' });
      expect(scenario.statusCode).toBe(201);
      const scenarioId = scenario.json<{ id: string }>().id;
      const applied = await planner.app.inject({
        method: 'POST',
        url: `/v2/scenarios/${scenarioId}/apply`,
        headers: {
          authorization: `Bearer ${signTestToken({
            keys: main.keys,
            companyId: acme,
            roleId: 1,
            subject: `user:${main.companies[0].userId}`,
          })}`,
          'if-match': scenario.headers.etag as string,
        },
      });
      expect(applied.statusCode).toBe(200);

      // Following main-api's feed page by page, as a poller does, until it has seen every kind.
      const seen = new Map<string, { id: number; kind: string }>();
      await eventually('every kind in the feed', async () => {
        const page = await main.call('GET', `/events?after=${after}&limit=5`);
        expect(page.statusCode).toBe(200);
        const { data, next_cursor } = page.json<{
          data: { entity: string; id: number; kind: string }[];
          next_cursor: string;
        }>();
        for (const event of data) {
          seen.set(event.entity, event);
        }
        after = next_cursor;
        return seen.size === CHANGE_FEED_ENTITIES.length;
      });
      for (const [kind, id] of changed) {
        expect([kind, seen.get(kind)?.id]).toEqual([kind, id]);
      }
      const plannerPage = await callPlanner('GET', `/v2/events?after=${plannerAfter}`);
      const [booked] = plannerPage.json<{ data: { entity: string; id: string; user_id: number }[] }>().data;
      expect(booked).toMatchObject({ entity: 'allocations', kind: 'created', user_id: changed.get('users') });

      const webhooks = await eventually('a webhook of every kind', () => {
        const kinds = new Set(
          receiver.requestsFor('/everything').map((request) => request.payload.data.entity),
        );
        return kinds.size === SUBSCRIPTION_ENTITIES.length && receiver.requestsFor('/everything');
      });
      expect(webhooks.every((request) => request.verified)).toBe(true);
      // A snapshot of each kind that has a route by id, as that route answers it.
      const snapshotOf = (kind: string) =>
        (
          webhooks.find(
            (request) => request.payload.data.entity === kind && request.payload.data.kind === 'created',
          )?.payload.data as { snapshot?: { id?: number } | null } | undefined
        )?.snapshot;
      for (const kind of ['clients', 'projects', 'tasks', 'hours', 'users', 'ratecards', 'transactions']) {
        expect([kind, snapshotOf(kind)?.id]).toEqual([kind, changed.get(kind)]);
      }
      expect(snapshotOf('fees')).toBeNull();
      // The booking, from the planner's feed: its uuid, the user and project it books.
      expect(
        webhooks.find((request) => request.payload.type === 'allocations.created')?.payload.data,
      ).toMatchObject({
        entity: 'allocations',
        id: booked?.id,
        user_id: changed.get('users'),
        project_id: changed.get('projects'),
        // As the planner's GET /v2/allocations/{id} answers it, read with the planner's client.
        snapshot: { id: booked?.id, user_id: changed.get('users'), from: '2027-03-01', to: '2027-03-05' },
      });
      // The placeholder, from the planner's feed too, as GET /v2/placeholders/{id} answers it.
      expect(
        webhooks.find((request) => request.payload.type === 'placeholders.created')?.payload.data,
      ).toMatchObject({
        entity: 'placeholders',
        id: placeholderId,
        user_id: null,
        project_id: changed.get('projects'),
        snapshot: { id: placeholderId, name: 'Designer to hire', project_id: changed.get('projects') },
      });
      // The applied scenario, as GET /v2/scenarios/{id} answers it.
      expect(
        webhooks.find((request) => request.payload.type === 'scenarios.updated')?.payload.data,
      ).toMatchObject({
        entity: 'scenarios',
        id: scenarioId,
        snapshot: { id: scenarioId, status: 'applied' },
      });
    });

    it("follows the planner's feed by its watch: a booking's create, update and delete, each once", async () => {
      const client = await createClient('Planner feed');
      const project = await createdId('/projects', { name: 'Booked', client_id: client });
      const user = await workingUser();
      const subscription = await subscribe('/allocations', { entities: ['allocations'] });

      const booking = allocationBody(user, project, '2027-04-05', '2027-04-09');
      expect((await callPlanner('POST', '/allocation/saveAllocation', booking)).statusCode).toBe(200);
      const moved = { ...booking, allocatedHours: 30 };
      expect(
        (
          await callPlanner('PUT', '/allocation/updateAllocation', {
            oldAllocation: booking,
            newAllocation: moved,
          })
        ).statusCode,
      ).toBe(200);
      expect((await callPlanner('DELETE', '/allocation/removeAllocation', moved)).statusCode).toBe(200);

      const requests = await eventually(
        'the three changes',
        () => receiver.requestsFor('/allocations').length >= 3 && receiver.requestsFor('/allocations'),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sent = receiver.requestsFor('/allocations').map((request) => request.payload);
      expect(sent.map((payload) => payload.type)).toEqual([
        'allocations.created',
        'allocations.updated',
        'allocations.deleted',
      ]);
      expect(requests.every((request) => request.verified)).toBe(true);
      const [created, updated] = sent;
      expect(created?.data).toMatchObject({
        entity: 'allocations',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: user,
        project_id: project,
        external_id: null,
      });
      expect(updated?.data.changed_fields).toEqual(['allocated_hours']);
      expect(new Set(sent.map((payload) => payload.data.id)).size).toBe(1);
      // The delivery log names them as it names main-api's.
      const logged = await deliveriesOf(subscription.id);
      expect(logged.map((delivery) => [delivery.type, delivery.status]).sort()).toEqual([
        ['allocations.created', 'delivered'],
        ['allocations.deleted', 'delivered'],
        ['allocations.updated', 'delivered'],
      ]);
      const feeds = await integrationsDb.query<{ feed: string }[]>(
        'SELECT DISTINCT feed FROM webhook_deliveries WHERE subscription_id = $1',
        [subscription.id],
      );
      expect(feeds).toEqual([{ feed: 'planner' }]);
    });

    it("answers the planner's watch to integrations alone, naming the companies with new events", async () => {
      const watch = (target: string, signed: boolean) =>
        planner.app.inject({
          method: 'GET',
          url: target,
          headers: signed
            ? {
                [SERVICE_SIGNATURE_HEADER]: signServiceRequest(
                  TEST_CHANGE_ORIGIN_KEY,
                  'integrations',
                  'GET',
                  target,
                ),
              }
            : {},
        });
      const first = await watch('/v2/events/watch?wait=0', true);
      expect(first.statusCode).toBe(200);
      const { position } = first.json<{ position: string; reset: boolean }>();
      expect(first.json()).toMatchObject({ reset: true, companies: [] });

      const user = await workingUser();
      const client = await createClient('Watched');
      const project = await createdId('/projects', { name: 'Watched', client_id: client });
      expect((await book(user, project, '2027-05-03', '2027-05-07')).statusCode).toBe(200);

      const target = `/v2/events/watch?after=${encodeURIComponent(position)}&wait=5`;
      const next = await watch(target, true);
      expect(next.statusCode).toBe(200);
      expect(next.json()).toMatchObject({ reset: false, companies: [acme] });
      // Unsigned, signed for main-api's route, or by a company's token: refused.
      expect((await watch(target, false)).statusCode).toBe(401);
      const forMainApi = await planner.app.inject({
        method: 'GET',
        url: target,
        headers: {
          [SERVICE_SIGNATURE_HEADER]: signServiceRequest(
            TEST_CHANGE_ORIGIN_KEY,
            'integrations',
            'GET',
            target.replace('/v2/', '/v1/'),
          ),
        },
      });
      expect(forMainApi.statusCode).toBe(401);
      expect((await callPlanner('GET', target)).statusCode).toBe(401);
    });

    it('sends only the changes of the projects a subscription names', async () => {
      const client = await createClient('Project filter');
      const wanted = await createdId('/projects', { name: 'Wanted', client_id: client });
      const other = await createdId('/projects', { name: 'Other', client_id: client });
      await subscribe('/projects-only', { entities: [], project_ids: [wanted] });

      await createdId('/tasks', { project_id: other, name: 'Not sent' });
      await renameClient(client, 'Project filter, renamed');
      await createdId('/tasks', { project_id: wanted, name: 'Sent' });
      expect((await main.call('PUT', `/projects/${wanted}`, { name: 'Wanted, renamed' })).statusCode).toBe(
        200,
      );

      const requests = await eventually(
        'the task and the rename of the wanted project',
        () => receiver.requestsFor('/projects-only').length >= 2 && receiver.requestsFor('/projects-only'),
      );
      // Give a wrongly sent change time to arrive before judging.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sent = receiver.requestsFor('/projects-only').map((request) => request.payload);
      expect(sent.map((payload) => [payload.type, payload.data.project_id])).toEqual([
        ['tasks.created', wanted],
        ['projects.updated', wanted],
      ]);
      expect(requests.every((request) => request.verified)).toBe(true);
    });

    it('carries the entity as main-api answers it after the change with payload: snapshot', async () => {
      await subscribe('/snapshots', { payload: 'snapshot' });
      const client = await createClient('Snapshot');
      await renameClient(client, 'Snapshot, renamed');
      await eventually('two changes', () => receiver.requestsFor('/snapshots').length >= 2);
      expect((await main.call('DELETE', `/clients/${client}`)).statusCode).toBe(200);
      await eventually('the deletion', () => receiver.requestsFor('/snapshots').length >= 3);
      const sent = receiver.requestsFor('/snapshots').map((request) => request.payload);
      expect(sent.map((payload) => payload.type)).toEqual([
        'clients.created',
        'clients.updated',
        'clients.deleted',
      ]);
      const snapshots = sent.map(
        (payload) => (payload.data as { snapshot?: { name?: string } | null }).snapshot,
      );
      // Read when the event was read: by then the client may already have its later name.
      expect(snapshots[0]).toMatchObject({ id: client, name: expect.stringMatching(/^Snapshot/) });
      expect(snapshots[1]).toMatchObject({ id: client });
      expect(snapshots[2]).toBeNull();
    });

    it('sends a signed test event on request and says what the receiver answered', async () => {
      const subscription = await subscribe('/test-event');
      const sent = await call('POST', `/subscriptions/${subscription.id}/test`);

      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({
        webhook_id: expect.stringMatching(/^msg_test_[0-9a-f-]{36}$/),
        delivered: true,
        status_code: 204,
        error: null,
        duration_ms: expect.any(Number),
      });
      const [request] = receiver.requestsFor('/test-event');
      expect(request.verified).toBe(true);
      expect(request.payload).toMatchObject({
        type: 'subscription.test',
        data: { subscription_id: subscription.id },
      });
      // Not a delivery: nothing in the log.
      expect(await deliveriesOf(subscription.id)).toEqual([]);

      receiver.answer = () => 503;
      const failing = await call('POST', `/subscriptions/${subscription.id}/test`);
      expect(failing.json()).toMatchObject({ delivered: false, status_code: 503, error: null });
      expect((await call('POST', `/subscriptions/${randomUUID()}/test`)).statusCode).toBe(404);
      expect(
        (await call('POST', `/subscriptions/${subscription.id}/test`, undefined, { company: globex }))
          .statusCode,
      ).toBe(404);
    });
  });
});
