import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pendingSchemaChanges, type DatabaseEnv } from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { scrapeMetrics } from './prometheus-metrics';
import { TEST_ALLOWED_ORIGIN } from './test-service';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');

interface OpenApiOperations {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}

export interface OperationalExpectations {
  getApp(): NestFastifyApplication;
  getEnv(): DatabaseEnv;
  dataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string };
  openApiTitle: string;
  /** `openapi/<service>.json`, the committed document: the running service must publish the same. */
  committedOpenApi: string;
  /** The service's error body for `GET /no-such-route`. */
  notFoundBody: object;
  /** The service's error body for a malformed JSON body. */
  malformedJsonBody: object;
}

/**
 * What every service must do whatever its features (docs/spec/decisions.md §1, §4): health, docs, metrics, CORS,
 * request ids, its own error body for unknown routes and malformed JSON, and migrations that match
 * its entities. Each app's e2e spec calls this once.
 */
export function itServesTheOperationalEndpoints(expectations: OperationalExpectations): void {
  it('answers /health/live, /health/ready and /health/ready/self with 200 when its dependencies are up', async () => {
    const live = await expectations.getApp().inject({ method: 'GET', url: '/health/live' });
    const ready = await expectations.getApp().inject({ method: 'GET', url: '/health/ready' });
    const self = await expectations.getApp().inject({ method: 'GET', url: '/health/ready/self' });

    expect(live.statusCode).toBe(200);
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
    expect(Object.keys(self.json<{ details: object }>().details)).toEqual(['database']);
  });

  it('publishes its OpenAPI document at /docs-json and Swagger UI at /docs', async () => {
    const document = await expectations.getApp().inject({ method: 'GET', url: '/docs-json' });
    const ui = await expectations.getApp().inject({ method: 'GET', url: '/docs' });

    expect(document.statusCode).toBe(200);
    expect(document.json()).toMatchObject({
      openapi: expect.stringMatching(/^3\./),
      info: { title: expectations.openApiTitle },
    });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it("refuses to be framed: /docs, each asset it loads and /docs-json send frame-ancestors 'none' and X-Frame-Options DENY", async () => {
    const app = expectations.getApp();
    const page = await app.inject({ method: 'GET', url: '/docs' });
    // What the page loads, resolved as a browser that opened /docs would.
    const assets = [...page.body.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map(
      ([, reference]) => new URL(reference, 'http://service/docs').pathname,
    );
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui.css', '/docs/swagger-ui-init.js']));

    const unframeable: string[] = [];
    for (const url of ['/docs', ...assets, '/docs-json']) {
      const response = await app.inject({ method: 'GET', url });
      if (
        response.statusCode !== 200 ||
        response.headers['content-security-policy'] !== "frame-ancestors 'none'" ||
        response.headers['x-frame-options'] !== 'DENY'
      ) {
        unframeable.push(`${url} answered ${response.statusCode}`);
      }
    }

    expect(unframeable).toEqual([]);
  });

  it('publishes the document committed in openapi/ (run `npm run openapi` after changing the API)', async () => {
    const live = (await expectations.getApp().inject({ method: 'GET', url: '/docs-json' })).json<{
      paths: Record<string, unknown>;
    }>();
    // Tests mount probe routes of their own; they are not part of the service.
    live.paths = Object.fromEntries(
      Object.entries(live.paths).filter(([path]) => !path.includes('/test-probe/')),
    );
    const committed = JSON.parse(
      readFileSync(join(WORKSPACE_ROOT, expectations.committedOpenApi), 'utf8'),
    ) as object;

    expect(live).toEqual(committed);
  });

  it('exposes Prometheus metrics including request durations', async () => {
    await expectations.getApp().inject({ method: 'GET', url: '/health/live' });
    const metrics = await expectations.getApp().inject({ method: 'GET', url: '/metrics' });

    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health/live",status_code="200"}',
    );
    expect(metrics.body).toContain('process_cpu_user_seconds_total');
  });

  it("exposes the database pool's connections in use and idle and the requests waiting, read when scraped", async () => {
    const app = expectations.getApp();
    // The readiness probe queries the database: the pool has opened a connection and given it back.
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    const metrics = await scrapeMetrics(app);
    const inUse = metrics.value('database_pool_connections_in_use') ?? Number.NaN;
    const idle = metrics.value('database_pool_connections_idle') ?? Number.NaN;

    // A worker of the service (integrations' delivery) may hold a connection at that instant.
    expect(inUse).toBeGreaterThanOrEqual(0);
    expect(idle).toBeGreaterThanOrEqual(0);
    // Test services have a pool of 4 (startTestService).
    expect(inUse + idle).toBeGreaterThanOrEqual(1);
    expect(inUse + idle).toBeLessThanOrEqual(4);
    expect(metrics.value('database_pool_requests_waiting')).toBe(0);
  });

  it('echoes an acceptable x-request-id and makes one up otherwise', async () => {
    const supplied = await expectations
      .getApp()
      .inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'trace-42' } });
    const forged = await expectations
      .getApp()
      .inject({ method: 'GET', url: '/health/live', headers: { 'x-request-id': 'a b\n<script>' } });

    expect(supplied.headers['x-request-id']).toBe('trace-42');
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a browser preflight from an allowed origin on every documented operation (CORS)', async () => {
    const app = expectations.getApp();
    const document = (await app.inject({ method: 'GET', url: '/docs-json' })).json<OpenApiOperations>();
    const unanswered: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods).map((name) => name.toUpperCase())) {
        const response = await app.inject({
          method: 'OPTIONS',
          url: path.replace(/\{[^}]+\}/g, '1'),
          headers: {
            origin: TEST_ALLOWED_ORIGIN,
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization,content-type',
          },
        });
        const allowedMethods = String(response.headers['access-control-allow-methods']).split(', ');
        if (
          response.statusCode !== 204 ||
          response.headers['access-control-allow-origin'] !== TEST_ALLOWED_ORIGIN ||
          !allowedMethods.includes(method)
        ) {
          unanswered.push(`${method} ${path} answered ${response.statusCode}`);
        }
      }
    }

    expect(unanswered).toEqual([]);
  });

  it('lets a page from an allowed origin read an authenticated answer, never cached (CORS)', async () => {
    const app = expectations.getApp();
    const document = (await app.inject({ method: 'GET', url: '/docs-json' })).json<OpenApiOperations>();
    const [path] =
      Object.entries(document.paths).find(([, methods]) => (methods.get?.security?.length ?? 0) > 0) ?? [];
    expect(path).toBeDefined();

    const response = await app.inject({
      method: 'GET',
      url: String(path).replace(/\{[^}]+\}/g, '1'),
      headers: { origin: TEST_ALLOWED_ORIGIN, authorization: 'Bearer not-a-token' },
    });

    // A refusal is an authenticated answer too: the page must be able to read it.
    expect(response.statusCode).toBe(401);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': TEST_ALLOWED_ORIGIN,
      'access-control-expose-headers': expect.stringContaining('x-request-id'),
      'cache-control': 'no-store',
    });
  });

  it('answers an unknown route with its own 404 body', async () => {
    const response = await expectations.getApp().inject({ method: 'GET', url: '/no-such-route' });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(expectations.notFoundBody);
  });

  it('answers malformed JSON with its own 400 body, never a 500', async () => {
    const response = await expectations.getApp().inject({
      method: 'POST',
      url: '/no-such-route',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(expectations.malformedJsonBody);
  });

  it('has migrations that produce exactly the schema its entities describe', async () => {
    await expect(
      pendingSchemaChanges(expectations.dataSourceOptions(expectations.getEnv())),
    ).resolves.toEqual({ up: [], down: [] });
  });
}
