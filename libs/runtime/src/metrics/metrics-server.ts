import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsRegistry } from './metrics.registry';

export const METRICS_ROUTE = '/metrics';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** A listener that serves the registry and nothing else: the one METRICS_PORT opens. */
export interface MetricsServer {
  /** The port it listens on (METRICS_PORT, or the one the system chose for 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), apart from the API: no router, no auth, no
 * request log, only the registry's text; any other path or method is a 404 or 405. A plain
 * node:http server, because nothing of the API's stack (body parsing, validation, tenancy) belongs
 * on it.
 */
export async function listenForMetrics(
  metrics: MetricsRegistry,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_ROUTE) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': PROMETHEUS_TEXT });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n');
      },
    );
  });
  // A scrape holds no connection open: keep-alive sockets must not delay the process's exit.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
