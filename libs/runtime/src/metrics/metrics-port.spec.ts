import { Controller, Get } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BaseServiceEnv } from '../config/base-service.env';
import { EnvValidationError } from '../config/env-validation.error';
import { probeEnv, probeService } from '../testing/probe-service';
import { listenForMetrics, type MetricsServer } from './metrics-server';
import { MetricsRegistry } from './metrics.registry';

@Controller('projects')
class ProjectsProbeController {
  @Get()
  list(): { items: string[] } {
    return { items: ['Rebrand'] };
  }
}

function envWith(metricsPort?: string): BaseServiceEnv {
  return probeEnv({ METRICS_PORT: metricsPort });
}

/** A service built by `createServiceApp` exactly as the real ones are, under a `v1` prefix. */
function serviceWith(env: BaseServiceEnv): Promise<NestFastifyApplication> {
  return probeService(env, [ProjectsProbeController], { globalPrefix: 'v1' });
}

describe('METRICS_PORT', () => {
  it('is optional, and when set must be a port number', () => {
    expect(envWith().METRICS_PORT).toBeUndefined();
    expect(envWith('9464').METRICS_PORT).toBe(9464);
    expect(() => envWith('0')).toThrow(EnvValidationError);
    expect(() => envWith('http')).toThrow(/METRICS_PORT must be an integer between 1 and 65535/);
  });

  describe('unset: /metrics is served with the API, on its port (npm start, tests)', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await serviceWith(envWith());
    });
    afterAll(() => app.close());

    it('answers Prometheus text on the API port, counting the API requests', async () => {
      await app.inject({ method: 'GET', url: '/v1/projects' });
      const scrape = await app.inject({ method: 'GET', url: '/metrics' });

      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(scrape.body).toMatch(/^http_request_duration_seconds_count\{[^}]*route="\/v1\/projects"/m);
    });
  });

  describe('set: /metrics only on its own listener', () => {
    let app: NestFastifyApplication;
    let server: MetricsServer;
    beforeAll(async () => {
      // Port 0: the system picks a free one; the setting itself is checked above.
      app = await serviceWith(envWith('9464'));
      server = await listenForMetrics(app.get(MetricsRegistry), 0, '127.0.0.1');
    });
    afterAll(async () => {
      await server.close();
      await app.close();
    });

    it("answers 404 on the API's port, in the service's error body, and still serves the API", async () => {
      const scrape = await app.inject({ method: 'GET', url: '/metrics' });
      const withQuery = await app.inject({ method: 'GET', url: '/metrics?format=text' });
      const api = await app.inject({ method: 'GET', url: '/v1/projects' });

      expect(scrape.statusCode).toBe(404);
      expect(scrape.json()).toEqual({ message: expect.stringContaining('/metrics') });
      expect(withQuery.statusCode).toBe(404);
      expect(api.statusCode).toBe(200);
    });

    it('serves the same registry on the metrics port, API requests included', async () => {
      await app.inject({ method: 'GET', url: '/v1/projects' });
      const scrape = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      const text = await scrape.text();

      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(text).toMatch(/^http_request_duration_seconds_count\{[^}]*route="\/v1\/projects"/m);
      expect(text).toMatch(/^process_cpu_seconds_total /m);
    });

    it('serves nothing else there: no API route, no health, no writes', async () => {
      const api = await fetch(`http://127.0.0.1:${server.port}/v1/projects`);
      const health = await fetch(`http://127.0.0.1:${server.port}/health/live`);
      const post = await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' });
      await Promise.all([api.text(), health.text(), post.text()]);

      expect(api.status).toBe(404);
      expect(health.status).toBe(404);
      expect(post.status).toBe(405);
    });
  });
});
