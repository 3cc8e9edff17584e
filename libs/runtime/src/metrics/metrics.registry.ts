import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per service instance (not prom-client's global one), so several apps in one
 * test process never collide on metric names.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge whose value something else keeps (a pool's counts), read when scraped: no work in between. */
  gauge(definition: { name: string; help: string; read: () => number }): void {
    const { read } = definition;
    new Gauge({
      name: definition.name,
      help: definition.help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }
}
