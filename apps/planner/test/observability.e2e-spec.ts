import type { ServerResponse } from 'node:http';
import { startTracing, tracingEnabled } from '@platform/runtime';
import {
  scrapeMetrics,
  signTestToken,
  startConsumerTestService,
  type ConsumerTestService,
  type RecordedRequest,
} from '@platform/testing';
import { PlannerEnv } from '../src/config/planner.env';
import { plannerOwnerDataSourceOptions } from '../src/database/planner.data-source';
import { plannerService } from '../src/planner.service';

const PROJECT = 7;
const BREAKER_THRESHOLD = 2;

/**
 * The planner's view of main-api in /metrics (call durations by outcome, the breaker's state), and
 * tracing off: without OTEL_EXPORTER_OTLP_ENDPOINT nothing is started and no trace context is sent.
 */
describe('planner observability (e2e)', () => {
  let service: ConsumerTestService<PlannerEnv>;
  let token: string;

  /** main-api as the planner's read needs it: its keys, and project 7 in the look-ups. */
  const mainApiAnswering =
    (lookups: 'up' | 'down') =>
    (request: RecordedRequest, response: ServerResponse): void => {
      if (request.url.startsWith('/v1/planner/lookups')) {
        if (lookups === 'down') {
          response.writeHead(503).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            users: [],
            projects: [{ id: PROJECT, name: 'Launch', client: null }],
            working_time: {},
            leaves: [],
            labels: [],
          }),
        );
        return;
      }
      const body = request.url === '/v1/.well-known/jwks.json' ? service.keys.jwks : { status: 'ok' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };

  const readAllocations = (headers: Record<string, string> = {}) =>
    service.app.inject({
      method: 'GET',
      url: `/allocation/getAllocations/${PROJECT}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });

  beforeAll(async () => {
    service = await startConsumerTestService({
      definition: plannerService,
      envClass: PlannerEnv,
      dataSourceOptions: plannerOwnerDataSourceOptions,
      env: {
        MAIN_API_BREAKER_THRESHOLD: String(BREAKER_THRESHOLD),
        // Stays open for the rest of the file once opened.
        MAIN_API_BREAKER_COOLDOWN_MS: '600000',
      },
    });
    token = signTestToken({ keys: service.keys, roleId: 1 });
    service.mainApi.respondWith(mainApiAnswering('up'));
  });

  afterAll(() => service.close());

  it('with OTEL_EXPORTER_OTLP_ENDPOINT unset starts no SDK and sends no trace context to main-api', async () => {
    expect(service.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    // What runService does before building the app.
    expect(await startTracing(plannerService.name, service.env)).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    service.mainApi.requests.length = 0;

    // Even a caller's own trace context is not passed on while tracing is off.
    const read = await readAllocations({
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      tracestate: 'vendor=1',
    });

    expect(read.statusCode).toBe(200);
    const lookup = service.mainApi.requests.find((request) => request.url.startsWith('/v1/planner/lookups'));
    expect(lookup).toBeDefined();
    expect(lookup?.headers).not.toHaveProperty('traceparent');
    expect(lookup?.headers).not.toHaveProperty('tracestate');
    expect(read.headers).not.toHaveProperty('traceparent');
  });

  it('times calls to main-api by outcome and shows the breaker closed while main-api answers', async () => {
    const before = await scrapeMetrics(service.app);
    expect((await readAllocations()).statusCode).toBe(200);

    const after = await scrapeMetrics(service.app);

    const successes = { method: 'GET', outcome: 'success' };
    expect(after.value('main_api_client_request_duration_seconds_count', successes)).toBe(
      (before.value('main_api_client_request_duration_seconds_count', successes) ?? 0) + 1,
    );
    expect(after.value('main_api_client_request_duration_seconds_sum', successes)).toBeGreaterThan(0);
    expect(after.value('main_api_client_breaker_state', { state: 'closed' })).toBe(1);
    expect(after.value('main_api_client_breaker_state', { state: 'open' })).toBe(0);
    expect(after.value('main_api_client_breaker_state', { state: 'half_open' })).toBe(0);
  });

  it('shows the breaker open, and counts the calls that failed and those it refused, once main-api is down', async () => {
    service.mainApi.respondWith(mainApiAnswering('down'));
    for (let call = 0; call < BREAKER_THRESHOLD; call += 1) {
      expect((await readAllocations()).statusCode).toBe(503);
    }
    // The breaker answers this one without calling main-api.
    const lookupsBefore = service.mainApi.requests.length;
    expect((await readAllocations()).statusCode).toBe(503);
    expect(service.mainApi.requests.length).toBe(lookupsBefore);

    const metrics = await scrapeMetrics(service.app);

    expect(metrics.value('main_api_client_breaker_state', { state: 'open' })).toBe(1);
    expect(metrics.value('main_api_client_breaker_state', { state: 'closed' })).toBe(0);
    expect(
      metrics.value('main_api_client_request_duration_seconds_count', {
        method: 'GET',
        outcome: 'unavailable',
      }),
    ).toBe(BREAKER_THRESHOLD);
    expect(
      metrics.value('main_api_client_request_duration_seconds_count', {
        method: 'GET',
        outcome: 'circuit_open',
      }),
    ).toBe(1);
  });
});
