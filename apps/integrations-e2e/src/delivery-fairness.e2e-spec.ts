import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@platform/runtime';
import { startTestService, TEST_CHANGE_ORIGIN_KEY, type TestService } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
// A real main-api behind the service (test-only import, as in subscriptions.e2e-spec.ts): its change
// feed is what the delivery worker follows.
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';
import {
  DeliveryAttempts,
  type ClaimedAttempt,
} from '../../integrations/src/subscriptions/delivery/delivery-attempts';
import { callIntegrations } from './support/call-integrations';
import { eventually } from './support/eventually';

/**
 * A receiver that accepts the TCP connection and never answers: each attempt at it holds its slot
 * until DELIVERY_TIMEOUT_MS. Counts the connections it holds, and the most it ever held at once.
 */
class Tarpit {
  private readonly held = new Set<Socket>();
  mostHeld = 0;

  private constructor(
    private readonly server: NetServer,
    readonly port: number,
  ) {}

  static async start(): Promise<Tarpit> {
    const server = createNetServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tarpit = new Tarpit(server, (server.address() as AddressInfo).port);
    server.on('connection', (socket) => tarpit.hold(socket));
    return tarpit;
  }

  get holding(): number {
    return this.held.size;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.held.forEach((socket) => socket.destroy());
    await new Promise((resolve) => this.server.close(resolve));
  }

  private hold(socket: Socket): void {
    this.held.add(socket);
    this.mostHeld = Math.max(this.mostHeld, this.held.size);
    // Read (and drop) what comes, or the peer's close would go unnoticed.
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => this.held.delete(socket));
  }
}

interface Arrival {
  path: string;
  at: number;
  body: { data: { id: number } };
}

/** A healthy receiver: answers 204 at once and notes when each request arrived. */
class Receiver {
  readonly arrivals: Arrival[] = [];
  private readonly server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.arrivals.push({
        path: request.url ?? '/',
        at: Date.now(),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Arrival['body'],
      });
      response.writeHead(204).end();
    });
  });
  private port = 0;

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.port = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const ENCRYPTION_KEY = randomBytes(32).toString('base64');

function integrationsEnv(mainApiUrl: string, overrides: Record<string, string>): Record<string, string> {
  return {
    MAIN_API_URL: mainApiUrl,
    MAIN_API_TIMEOUT_MS: '3000',
    MAIN_API_BREAKER_THRESHOLD: '1000',
    INTEGRATIONS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
    // Any port of 127.0.0.1: the tarpit and the receiver of these tests.
    SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
    DELIVERY_POLL_MS: '50',
    // DELIVERY_TIMEOUT_MS, the in-flight caps and the retry schedule keep their defaults: a hung
    // receiver holds each attempt for the full 10 s, as it would in production.
    ...overrides,
  };
}

/** The real service on a database of its own, and a second replica on that database. */
interface Replicas {
  service: TestService<IntegrationsEnv>;
  second: NestFastifyApplication;
  db: DataSource;
}

async function startReplicas(mainApiUrl: string, overrides: Record<string, string>): Promise<Replicas> {
  const service = await startTestService({
    definition: integrationsService,
    envClass: IntegrationsEnv,
    dataSourceOptions: integrationsOwnerDataSourceOptions,
    env: integrationsEnv(mainApiUrl, overrides),
  });
  const second = await createServiceApp(integrationsService, service.env);
  const db = await new DataSource(integrationsOwnerDataSourceOptions(service.env)).initialize();
  return { service, second, db };
}

async function stopReplicas(replicas: Replicas | undefined): Promise<void> {
  await replicas?.db.destroy();
  await replicas?.second.close();
  await replicas?.service.close();
}

describe('integrations: outbound webhooks shared fairly between companies (e2e)', () => {
  let main: MainApiTestApp;
  let mainApiUrl: string;
  let tarpit: Tarpit;
  let receiver: Receiver;
  let acme: number;
  let globex: number;

  const expectError = (response: LightMyRequestResponse, status: number, error: string, code: string) => {
    expect({ status: response.statusCode, ...response.json<Record<string, unknown>>() }).toEqual({
      status,
      error,
      code,
      message: expect.any(String),
    });
  };
  /** POST /subscriptions to `app` by a C-Level user of `company`, with its own API client. */
  const subscription = (app: NestFastifyApplication, company: number, url: string) => {
    const { apiKey, clientSecret } = main.companies.find((provisioned) => provisioned.companyId === company)!;
    return callIntegrations(app, main.keys, company, 'POST', '/subscriptions', {
      metadata: { source: 'HUBSPOT' },
      url,
      entities: ['clients'],
      api_key: apiKey,
      client_secret: clientSecret,
    });
  };
  const subscribe = async (app: NestFastifyApplication, company: number, url: string): Promise<string> => {
    const response = await subscription(app, company, url);
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  };
  /** A change made in main-api, in `company`: one event in its change feed. */
  const createClient = async (company: number, name: string): Promise<number> => {
    const response = await main.call('POST', '/clients', { name }, { company });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  };

  beforeAll(async () => {
    main = await startMainApiTestApp(['Acme', 'Globex']);
    mainApiUrl = await main.listen();
    [acme, globex] = main.companies.map((company) => company.companyId) as [number, number];
    tarpit = await Tarpit.start();
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await tarpit?.stop();
    await receiver?.stop();
    await main?.close();
  });

  describe('a company whose receivers hang (two replicas delivering)', () => {
    const HUNG = 300;
    let delivering: Replicas;

    beforeAll(async () => {
      // Raised so that Acme can have its 300 subscriptions.
      delivering = await startReplicas(mainApiUrl, { SUBSCRIPTION_MAX_PER_COMPANY: String(HUNG) });
    });

    afterAll(() => stopReplicas(delivering));

    it("does not hold up another company's delivery: it arrives within 5 s while the hung ones wait", async () => {
      const { service, db } = delivering;
      const perCompany = service.env.DELIVERY_MAX_IN_FLIGHT_PER_COMPANY;
      for (let i = 0; i < HUNG; i += 1) {
        await subscribe(service.app, acme, tarpit.url(`/acme-${i}`));
      }
      await subscribe(service.app, globex, receiver.url('/globex'));
      // One change in Acme: 300 deliveries into the tarpit.
      await createClient(acme, 'Hung up on');
      await eventually("Acme's attempts hanging in the tarpit", () => tarpit.holding >= perCompany);

      const changedAt = Date.now();
      const clientId = await createClient(globex, 'On time');
      const arrival = await eventually(
        "Globex's delivery",
        () => receiver.arrivals.find((request) => request.path === '/globex'),
        5_000,
      );

      expect(arrival.body.data.id).toBe(clientId);
      expect(arrival.at - changedAt).toBeLessThanOrEqual(5_000);
      // Two replicas, 16 slots each, yet Acme never had more than its cap of attempts under way.
      expect(tarpit.mostHeld).toBe(perCompany);
      const statuses = await db.query<{ status: string; count: number }[]>(
        'SELECT status, count(*)::int AS count FROM webhook_deliveries WHERE company_id = $1 GROUP BY status',
        [acme],
      );
      expect(statuses).toEqual([{ status: 'pending', count: HUNG }]);
      const [{ open }] = await db.query<{ open: number }[]>(
        'SELECT count(*)::int AS open FROM webhook_delivery_attempts WHERE company_id = $1 AND finished_at IS NULL',
        [acme],
      );
      expect(open).toBe(perCompany);
    });
  });

  describe('with the workers off (requests and claims made by hand)', () => {
    const LIMIT = 3;
    let quiet: Replicas;

    beforeAll(async () => {
      quiet = await startReplicas(mainApiUrl, {
        DELIVERY_WORKER: 'off',
        // Small, so that the limit is reached in a few requests.
        SUBSCRIPTION_MAX_PER_COMPANY: String(LIMIT),
      });
    });

    afterAll(() => stopReplicas(quiet));

    afterEach(async () => {
      await quiet.db.query('DELETE FROM webhook_subscriptions');
    });

    describe('subscriptions per company', () => {
      it('answers 422 SubscriptionLimitError past SUBSCRIPTION_MAX_PER_COMPANY, for that company only', async () => {
        const { app } = quiet.service;
        const ids: string[] = [];
        for (let i = 0; i < LIMIT; i += 1) {
          ids.push(await subscribe(app, acme, receiver.url(`/limit-${i}`)));
        }

        const over = await subscription(app, acme, receiver.url('/limit-over'));

        expectError(over, 422, 'SubscriptionLimitError', 'ZC002');
        expect(over.json<{ message: string }>().message).toContain(`${LIMIT} subscriptions`);
        expect((await subscription(app, globex, receiver.url('/limit-other-company'))).statusCode).toBe(201);
        expect(
          (await callIntegrations(app, main.keys, acme, 'DELETE', `/subscriptions/${ids[0]}`)).statusCode,
        ).toBe(200);
        expect((await subscription(app, acme, receiver.url('/limit-over'))).statusCode).toBe(201);
      });

      it('holds the limit when creates race, on two replicas', async () => {
        const responses = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            subscription(i % 2 === 0 ? quiet.service.app : quiet.second, acme, receiver.url(`/race-${i}`)),
          ),
        );

        expect(responses.map((response) => response.statusCode).sort()).toEqual([
          ...Array<number>(LIMIT).fill(201),
          ...Array<number>(10 - LIMIT).fill(422),
        ]);
        const [{ count }] = await quiet.db.query<{ count: number }[]>(
          'SELECT count(*)::int AS count FROM webhook_subscriptions WHERE company_id = $1',
          [acme],
        );
        expect(count).toBe(LIMIT);
      });
    });

    describe('the claim', () => {
      let cursor = 0;
      const claimOn = (app: NestFastifyApplication, limit: number): Promise<ClaimedAttempt[]> =>
        app.get(DeliveryAttempts).claim(limit);
      const companiesOf = (claimed: ClaimedAttempt[]) => claimed.map((attempt) => attempt.companyId).sort();
      /** A subscription of `company` to `url`, made in the database (the claim never reads its secrets). */
      const subscriptionIn = async (company: number, url: string): Promise<string> => {
        const [{ id }] = await quiet.db.query<{ id: string }[]>(
          `INSERT INTO webhook_subscriptions (company_id, source, url, kinds, signing_secret_sealed, api_key, client_secret_sealed)
         VALUES ($1, 'HUBSPOT', $2, ARRAY['created'], 'sealed', 'api-key', 'sealed') RETURNING id`,
          [company, url],
        );
        return id;
      };
      /** `count` deliveries due since `secondsAgo` (at least 1; the first the oldest), in the subscription's company. */
      const due = async (subscriptionId: string, count: number, secondsAgo: number): Promise<void> => {
        cursor += count;
        await quiet.db.query(
          `INSERT INTO webhook_deliveries (company_id, subscription_id, event_cursor, entity, kind, payload, next_attempt_at)
         SELECT subscription.company_id, subscription.id, $2 + n, 'clients', 'created', '{}',
                now() - make_interval(secs => $4) + n * interval '1 millisecond'
           FROM webhook_subscriptions subscription, generate_series(1, $3) n
          WHERE subscription.id = $1`,
          [subscriptionId, cursor, count, secondsAgo],
        );
      };
      /** Attempts under way: not finished, and their delivery still leased. */
      const underWay = async (company: number): Promise<number> => {
        const [{ count }] = await quiet.db.query<{ count: number }[]>(
          `SELECT count(*)::int AS count FROM webhook_delivery_attempts attempt
           JOIN webhook_deliveries delivery ON delivery.id = attempt.delivery_id
          WHERE attempt.company_id = $1 AND attempt.finished_at IS NULL AND delivery.next_attempt_at > now()`,
          [company],
        );
        return count;
      };

      it("takes companies in turns: one company's backlog does not push the others' deliveries back", async () => {
        await due(await subscriptionIn(901, 'https://one.example.com/hook'), 100, 60);
        await due(await subscriptionIn(902, 'https://two.example.com/hook'), 1, 30);
        await due(await subscriptionIn(903, 'https://three.example.com/hook'), 2, 1);

        const [{ id: oldest }] = await quiet.db.query<{ id: string }[]>(
          'SELECT id FROM webhook_deliveries WHERE company_id = 901 ORDER BY next_attempt_at LIMIT 1',
        );

        const claimed = await claimOn(quiet.service.app, 3);

        expect(companiesOf(claimed)).toEqual([901, 902, 903]);
        // Within a company, oldest first.
        expect(claimed.find((attempt) => attempt.companyId === 901)?.deliveryId).toBe(oldest);
      });

      it('keeps a company within DELIVERY_MAX_IN_FLIGHT_PER_COMPANY while replicas claim at once', async () => {
        const cap = quiet.service.env.DELIVERY_MAX_IN_FLIGHT_PER_COMPANY;
        await due(await subscriptionIn(901, 'https://one.example.com/hook'), 100, 60);
        await due(await subscriptionIn(902, 'https://two.example.com/hook'), 1, 1);

        const claimed = (
          await Promise.all(
            Array.from({ length: 8 }, (_, i) => claimOn(i % 2 === 0 ? quiet.service.app : quiet.second, 16)),
          )
        ).flat();

        expect(companiesOf(claimed)).toEqual([...Array<number>(cap).fill(901), 902]);
        expect(await underWay(901)).toBe(cap);
        expect(await claimOn(quiet.second, 16)).toEqual([]);
      });

      it('gives a company room again when an attempt finishes, or when its lease runs out', async () => {
        const cap = quiet.service.env.DELIVERY_MAX_IN_FLIGHT_PER_COMPANY;
        await due(await subscriptionIn(901, 'https://one.example.com/hook'), 100, 60);
        const [finished, abandoned] = await claimOn(quiet.service.app, 16);
        expect(await underWay(901)).toBe(cap);

        await quiet.db.query('UPDATE webhook_delivery_attempts SET finished_at = now() WHERE id = $1', [
          finished.attemptId,
        ]);
        expect(companiesOf(await claimOn(quiet.service.app, 16))).toEqual([901]);
        // As if the worker that claimed it had died: its lease (the delivery's next_attempt_at) ran out.
        await quiet.db.query(
          `UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE id = $1`,
          [abandoned.deliveryId],
        );

        expect(companiesOf(await claimOn(quiet.service.app, 16))).toEqual([901]);
        expect(await claimOn(quiet.service.app, 16)).toEqual([]);
        expect(await underWay(901)).toBe(cap);
      });

      it('keeps a target host within DELIVERY_MAX_IN_FLIGHT_PER_HOST over all companies and ports', async () => {
        const hostCap = quiet.service.env.DELIVERY_MAX_IN_FLIGHT_PER_HOST;
        for (let company = 911; company <= 922; company += 1) {
          await due(await subscriptionIn(company, `https://slow.example.com:${8000 + company}/hook`), 2, 60);
        }
        await due(await subscriptionIn(923, 'https://fast.example.com/hook'), 1, 1);

        const claimed = await claimOn(quiet.service.app, 16);
        const toSlow = claimed.filter((attempt) => attempt.url.startsWith('https://slow.example.com:'));

        expect(toSlow).toHaveLength(hostCap);
        // Each company's first turn comes before any company's second.
        expect(new Set(toSlow.map((attempt) => attempt.companyId)).size).toBe(hostCap);
        expect(claimed.filter((attempt) => attempt.companyId === 923)).toHaveLength(1);
        expect(await claimOn(quiet.second, 16)).toEqual([]);
      });
    });
  });
});
