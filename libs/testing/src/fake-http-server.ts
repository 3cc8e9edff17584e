import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void;

/**
 * A small real HTTP server standing in for main-api inside one app's tests (the platform-e2e
 * project tests against the real one). Records every request; the handler decides the answer.
 */
export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private handler: FakeHandler;

  private constructor(private readonly defaultHandler: FakeHandler) {
    this.handler = defaultHandler;
  }
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.requests.push(recorded);
      this.handler(recorded, response);
    });
  });

  static async start(defaultHandler: FakeHandler = answerOk): Promise<FakeHttpServer> {
    const fake = new FakeHttpServer(defaultHandler);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  respondWith(handler: FakeHandler): void {
    this.handler = handler;
  }

  /** Back to the handler given at start. */
  reset(): void {
    this.handler = this.defaultHandler;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function answerOk(_request: RecordedRequest, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
}

/** A stand-in for main-api that is alive and publishes `jwks` as its signing keys. */
export function startFakeMainApi(jwks: object): Promise<FakeHttpServer> {
  return FakeHttpServer.start((request, response) => {
    const body = request.url === '/v1/.well-known/jwks.json' ? jwks : { status: 'ok' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
}
