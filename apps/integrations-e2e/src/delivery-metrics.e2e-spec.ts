import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import {
  scrapeMetrics,
  startTestService,
  TEST_CHANGE_ORIGIN_KEY,
  type ScrapedMetrics,
  type TestService,
} from '@platform/testing';
// A real main-api behind the service (test-only import, as in subscriptions.e2e-spec.ts): its change
// feed is what the delivery worker follows.
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';
import { callIntegrations } from './support/call-integrations';
import { eventually } from './support/eventually';

/** A port of 127.0.0.1 nothing listens on: every attempt there is refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The outbound webhooks in integrations' /metrics: the backlog (read from the database when scraped)
 * rises when a delivery is queued against a target that cannot be reached, and the failed attempt is
 * counted by outcome.
 */
describe('integrations: delivery metrics (e2e)', () => {
  let main: MainApiTestApp;
  let service: TestService<IntegrationsEnv>;
  let company: number;

  const attempts = (metrics: ScrapedMetrics, outcome: string) =>
    metrics.value('delivery_attempts_total', { outcome });

  beforeAll(async () => {
    main = await startMainApiTestApp(['Metrics Agency']);
    const mainApiUrl = await main.listen();
    company = main.companies[0].companyId;
    service = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        MAIN_API_URL: mainApiUrl,
        MAIN_API_TIMEOUT_MS: '3000',
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
        SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
        DELIVERY_POLL_MS: '50',
      },
    });
  });

  afterAll(async () => {
    await service?.close();
    await main?.close();
  });

  it('serves no backlog and zero attempts of each outcome before anything is queued', async () => {
    const metrics = await scrapeMetrics(service.app);

    expect(metrics.value('delivery_backlog')).toBe(0);
    expect(metrics.value('delivery_oldest_pending_age_seconds')).toBe(0);
    expect(attempts(metrics, 'delivered')).toBe(0);
    expect(attempts(metrics, 'failed')).toBe(0);
    expect(attempts(metrics, 'interrupted')).toBe(0);
  });

  it('counts a pending delivery to an unreachable target, its age, and its failed attempt', async () => {
    const { apiKey, clientSecret } = main.companies[0];
    const subscribed = await callIntegrations(service.app, main.keys, company, 'POST', '/subscriptions', {
      metadata: { source: 'HUBSPOT' },
      url: `http://127.0.0.1:${await closedPort()}/hooks`,
      entities: ['clients'],
      api_key: apiKey,
      client_secret: clientSecret,
    });
    expect(subscribed.statusCode).toBe(201);

    // One change in main-api: one delivery, whose first attempt is refused and retried in about 5 s.
    expect((await main.call('POST', '/clients', { name: 'Unreachable' }, { company })).statusCode).toBe(201);
    const metrics = await eventually('the failed attempt in /metrics', async () => {
      const scraped = await scrapeMetrics(service.app);
      return attempts(scraped, 'failed') === 1 ? scraped : undefined;
    });

    expect(metrics.value('delivery_backlog')).toBe(1);
    expect(attempts(metrics, 'delivered')).toBe(0);
    // The age counts from when the delivery was queued: it grows while it waits for its retry.
    const age = metrics.value('delivery_oldest_pending_age_seconds') ?? 0;
    expect(age).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await scrapeMetrics(service.app)).value('delivery_oldest_pending_age_seconds')).toBeGreaterThan(
      age + 1,
    );
  });
});
