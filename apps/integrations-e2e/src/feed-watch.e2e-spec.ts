import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@platform/runtime';
import { startTestService, TEST_CHANGE_ORIGIN_KEY, type TestService } from '@platform/testing';
import { DataSource } from 'typeorm';
// A real main-api behind the service (test-only import, as in subscriptions.e2e-spec.ts): its
// request metrics count what integrations asks of it.
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';
import { callIntegrations } from './support/call-integrations';
import { eventually } from './support/eventually';

const COMPANIES = 12;
const POLL_MS = 50;

interface Delivered {
  company: number;
  cursor: string;
  kind: string;
  id: number;
  webhookId: string;
}

/** Takes every webhook (signatures are the subscriptions suite's concern) and notes what it carried. */
class Receiver {
  readonly delivered: Delivered[] = [];
  private server?: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const { data } = JSON.parse(body) as { data: { cursor: string; kind: string; id: number } };
        this.delivered.push({
          company: Number(request.url?.slice(1)),
          cursor: data.cursor,
          kind: data.kind,
          id: data.id,
          webhookId: String(request.headers['webhook-id']),
        });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server?.address() as AddressInfo).port;
  }

  of(company: number): Delivered[] {
    return this.delivered.filter((delivery) => delivery.company === company);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** main-api's answered requests by route (its Prometheus histogram's counts). */
async function requestsByRoute(mainApiUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${mainApiUrl}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const [, route, count] of text.matchAll(
    /^http_request_duration_seconds_count\{[^}]*route="([^"]*)"[^}]*\} (\d+)/gm,
  )) {
    counts.set(route, (counts.get(route) ?? 0) + Number(count));
  }
  return counts;
}

/** Waits until main-api has answered no feed read for a second: the worker has caught up. */
async function atRest(mainApiUrl: string): Promise<void> {
  let last = -1;
  await eventually('main-api at rest', async () => {
    const reads = (await requestsByRoute(mainApiUrl)).get('/v1/events') ?? 0;
    const still = reads === last;
    last = reads;
    return still || new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_000));
  });
}

function delta(before: Map<string, number>, after: Map<string, number>, route: string): number {
  return (after.get(route) ?? 0) - (before.get(route) ?? 0);
}

describe('integrations: the change feed at rest costs main-api O(1) requests (e2e, issue 24)', () => {
  let main: MainApiTestApp;
  let mainApiUrl: string;
  /** The HTTP API and the database; its own worker is off, so workers can be stopped and started. */
  let integrations: TestService<IntegrationsEnv>;
  let integrationsDb: DataSource;
  let receiver: Receiver;
  let companies: number[];
  const workers: NestFastifyApplication[] = [];

  const startWorker = async (env: Partial<Record<keyof IntegrationsEnv, string>> = {}) => {
    const worker = await createServiceApp(integrationsService, {
      ...integrations.env,
      DELIVERY_WORKER: 'on',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...env,
    } as IntegrationsEnv);
    workers.push(worker);
    return worker;
  };
  const stopWorker = async (worker: NestFastifyApplication) => {
    workers.splice(workers.indexOf(worker), 1);
    await worker.close();
  };
  const createClient = async (company: number, name: string): Promise<number> => {
    const response = await main.call('POST', '/clients', { name }, { company });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  };
  /** The company's feed cursors after `after`, read as main-api answers them. */
  const feedCursors = async (company: number, after: string): Promise<string[]> => {
    const response = await main.call('GET', `/events?after=${after}&limit=1000`, undefined, { company });
    return response.json<{ data: { cursor: string }[] }>().data.map((event) => event.cursor);
  };

  beforeAll(async () => {
    main = await startMainApiTestApp(Array.from({ length: COMPANIES }, (_, index) => `Watched ${index + 1}`));
    mainApiUrl = await main.listen();
    companies = main.companies.map((company) => company.companyId);
    receiver = new Receiver();
    await receiver.start();
    integrations = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        MAIN_API_URL: mainApiUrl,
        MAIN_API_TIMEOUT_MS: '3000',
        MAIN_API_BREAKER_THRESHOLD: '1000',
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
        SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
        DELIVERY_WORKER: 'off',
        DELIVERY_POLL_MS: String(POLL_MS),
        DELIVERY_TIMEOUT_MS: '2000',
        FEED_WATCH_WAIT_SECONDS: '20',
      },
    });
    integrationsDb = await new DataSource(integrationsOwnerDataSourceOptions(integrations.env)).initialize();
    for (const [index, company] of companies.entries()) {
      const response = await callIntegrations(
        integrations.app,
        main.keys,
        company,
        'POST',
        '/subscriptions',
        {
          metadata: { source: 'HUBSPOT' },
          url: `http://127.0.0.1:${receiver.port}/${company}`,
          entities: ['clients'],
          api_key: main.companies[index]?.apiKey,
          client_secret: main.companies[index]?.clientSecret,
        },
        { company },
      );
      expect(response.statusCode).toBe(201);
    }
  });

  afterAll(async () => {
    for (const worker of [...workers]) {
      await stopWorker(worker);
    }
    await integrationsDb?.destroy();
    await integrations?.close();
    await receiver?.stop();
    await main?.close();
  });

  it(`with ${COMPANIES} companies subscribed and nothing changing, main-api gets no feed reads, only the watch`, async () => {
    const worker = await startWorker();
    // Every company has had an event followed, so each has a cursor and is known to the worker.
    for (const company of companies) {
      await createClient(company, `Before idle ${company}`);
    }
    await eventually('one delivery per company', () =>
      companies.every((company) => receiver.of(company).length === 1),
    );
    // The full read at start and the watch's first answer may both name a company: let both finish.
    await atRest(mainApiUrl);

    const before = await requestsByRoute(mainApiUrl);
    // 60 worker turns: before issue 24 that was 60 × 12 feed reads.
    await new Promise((resolve) => setTimeout(resolve, 60 * POLL_MS));
    const after = await requestsByRoute(mainApiUrl);

    expect(delta(before, after, '/v1/events')).toBe(0);
    // The long poll in flight answers at most once in the window (woken or after 20 s).
    expect(delta(before, after, '/v1/events/watch')).toBeLessThanOrEqual(1);
    const answered = [...after.keys()]
      .filter((route) => route !== '/metrics')
      .reduce((sum, route) => sum + delta(before, after, route), 0);
    expect(answered).toBeLessThanOrEqual(1);
    await stopWorker(worker);
  });

  it('delivers a change in one company promptly (woken by the commit, not after the 20 s wait), reading only its feed', async () => {
    const worker = await startWorker();
    const company = companies[4];
    // The worker's first turns (a full read, then the watch) are over.
    await atRest(mainApiUrl);
    const before = await requestsByRoute(mainApiUrl);
    const seen = receiver.of(company).length;

    const started = Date.now();
    const clientId = await createClient(company, 'Wakes the watch');
    await eventually('the delivery of the new client', () => receiver.of(company).length > seen, 10_000);
    const elapsed = Date.now() - started;

    expect(receiver.of(company).at(-1)).toMatchObject({ kind: 'created', id: clientId });
    expect(elapsed).toBeLessThan(5_000);
    const after = await requestsByRoute(mainApiUrl);
    // One page of that company (two at most if the watch answered twice), none of the others'.
    expect(delta(before, after, '/v1/events')).toBeLessThanOrEqual(2);
    await stopWorker(worker);
  });

  it('delivers what changed while no worker ran, every event once and in cursor order, after a restart', async () => {
    const company = companies[2];
    const first = await startWorker();
    const start = (await feedCursors(company, '0')).at(-1) ?? '0';
    const clientId = await createClient(company, 'Before the restart');
    await eventually('the first delivery', () =>
      receiver.of(company).some((delivery) => delivery.id === clientId),
    );
    await stopWorker(first);

    // While nothing follows the feed: a rename, a second client, a delete.
    expect(
      (await main.call('PUT', `/clients/${clientId}`, { name: 'Renamed' }, { company })).statusCode,
    ).toBe(200);
    const second = await createClient(company, 'While down');
    expect((await main.call('DELETE', `/clients/${clientId}`, undefined, { company })).statusCode).toBe(200);
    const expected = await feedCursors(company, start);
    expect(expected).toHaveLength(4);

    await startWorker();
    await eventually('every event of the company delivered', () => {
      const cursors = new Set(receiver.of(company).map((delivery) => delivery.cursor));
      return expected.every((cursor) => cursors.has(cursor));
    });

    const [subscription] = await integrationsDb.query<{ id: string }[]>(
      'SELECT id FROM webhook_subscriptions WHERE company_id = $1',
      [company],
    );
    const queued = await integrationsDb.query<{ event_cursor: string }[]>(
      `SELECT event_cursor::text AS event_cursor FROM webhook_deliveries
        WHERE subscription_id = $1 AND event_cursor > $2 ORDER BY event_cursor`,
      [subscription?.id, start],
    );
    // Queued once each (the unique key), every event of the feed, none missing.
    expect(queued.map((row) => row.event_cursor)).toEqual(expected);
    expect(
      receiver
        .of(company)
        .filter((delivery) => expected.includes(delivery.cursor))
        .map((d) => d.kind),
    ).toEqual(expect.arrayContaining(['created', 'updated', 'created', 'deleted']));
    expect(receiver.of(company).some((delivery) => delivery.id === second)).toBe(true);
    await stopWorker(workers[0]);
  });

  it('falls back to reading every feed when main-api will not be watched (here: it refuses the signature)', async () => {
    const before = await requestsByRoute(mainApiUrl);
    const worker = await startWorker({ CHANGE_ORIGIN_KEY: randomBytes(32).toString('base64') });
    const company = companies[7];
    const seen = receiver.of(company).length;

    await createClient(company, 'Found by the fallback');
    await eventually('the delivery found by reading every feed', () => receiver.of(company).length > seen);
    // Every company's feed read on each turn, at least two turns: waited for rather than timed, as a
    // turn takes longer on a loaded machine.
    const after = await eventually('two turns over every feed', async () => {
      const now = await requestsByRoute(mainApiUrl);
      return delta(before, now, '/v1/events') >= COMPANIES * 2 && now;
    });

    // The watch was refused (401, asked again a minute later; a poll of an earlier worker may end
    // in the window too), then every company feed was read each turn, as before the watch existed.
    expect(delta(before, after, '/v1/events/watch')).toBeGreaterThanOrEqual(1);
    await stopWorker(worker);
  });
});
