import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pendingSchemaChanges, type DatabaseEnv } from '@platform/database';
import type { DataSourceOptions } from 'typeorm';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');

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
 * What every service must do whatever its features (decisions §1, §4): health, docs, metrics,
 * request ids, its own error body for unknown routes and malformed JSON, and migrations that match
 * its entities. Each app's e2e spec calls this once.
 */
export function itServesTheOperationalEndpoints(expectations: OperationalExpectations): void {
  it('answers /health/live and /health/ready with 200 when its database is up', async () => {
    const live = await expectations.getApp().inject({ method: 'GET', url: '/health/live' });
    const ready = await expectations.getApp().inject({ method: 'GET', url: '/health/ready' });

    expect(live.statusCode).toBe(200);
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
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
