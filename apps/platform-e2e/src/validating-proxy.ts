import {
  Agent,
  createServer,
  request as forward,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { OpenApiContract } from '@platform/testing';

/**
 * Headers that belong to one connection, not to the message (RFC 9110 §7.6.1): each side of the
 * proxy has its own connection, so these are the proxy's to set. Everything else, Host and Origin
 * included, reaches the other side unchanged, and no `x-forwarded-*` is added.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/** How long `close()` lets exchanges in flight finish (their service is stopping or gone). */
const DRAIN_MS = 5_000;

/**
 * A reverse proxy in front of one service process that checks every answer against the service's
 * committed OpenAPI document, as the in-process tests do with a hook (libs/testing's test-service):
 * the platform suite talks to built processes, so only something on the wire sees their answers.
 * Transparent on purpose: the browser test must meet the same origin, CORS and host as without it,
 * and a service that refuses or drops a connection makes the proxy drop the client's connection,
 * never answer in the service's place.
 */
export class ValidatingProxy {
  private readonly problems: string[] = [];
  private reported = 0;
  private inFlight = 0;
  private drained: (() => void) | undefined;
  private closing: Promise<void> | undefined;
  /**
   * A connection per request to the service: a reused one could be closed by the service's idle
   * timeout just as a request goes out on it, and the proxy would drop a request the client sent.
   */
  private readonly agent = new Agent({ keepAlive: false });

  private constructor(
    private readonly contract: OpenApiContract,
    private readonly server: Server,
    private readonly targetPort: number,
  ) {
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      this.exchange(request, response),
    );
  }

  /** Listens on `port` (0: any free port) of 127.0.0.1 and forwards to the service on `targetPort`. */
  static async start(service: string, port: number, targetPort: number): Promise<ValidatingProxy> {
    const contract = await OpenApiContract.of(service);
    const server = createServer();
    const proxy = new ValidatingProxy(contract, server, targetPort);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Stops listening, lets the exchanges in flight end, then fails with the answers that differed. */
  async close(): Promise<void> {
    this.closing ??= this.shutDown();
    await this.closing;
    this.assertNoProblems();
  }

  /** Fails with every answer that differed from the document since the last call, listed. */
  assertNoProblems(): void {
    const found = this.problems.slice(this.reported);
    this.reported = this.problems.length;
    if (found.length > 0) {
      throw new Error(
        `${found.length} answer(s) of ${this.contract.service} differ from openapi/${this.contract.service}.json:\n` +
          found.join('\n'),
      );
    }
  }

  private async shutDown(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.inFlight > 0) {
      await Promise.race([
        new Promise<void>((resolve) => (this.drained = resolve)),
        new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref()),
      ]);
    }
    // Keep-alive connections of clients (browsers, undici) would otherwise hold the port.
    this.server.closeAllConnections();
    this.agent.destroy();
    await closed;
  }

  private exchange(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight += 1;
    let ended = false;
    const end = () => {
      if (!ended) {
        ended = true;
        this.inFlight -= 1;
        if (this.inFlight === 0) {
          this.drained?.();
        }
      }
    };
    response.on('close', end);

    const upstream = forward({
      host: '127.0.0.1',
      port: this.targetPort,
      method: request.method,
      path: request.url,
      headers: withoutHopByHop(request.rawHeaders),
      agent: this.agent,
    });
    // Refused or reset by the service: the client sees a dropped connection, as it would without us.
    upstream.on('error', () => response.destroy());
    response.on('close', () => {
      if (!response.writableFinished) {
        upstream.destroy();
      }
    });
    upstream.on('response', (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        if (!answer.complete) {
          return;
        }
        this.check(request, answer, Buffer.concat(chunks));
      });
      answer.on('error', () => response.destroy());
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.rawHeaders));
      answer.pipe(response);
    });
    request.pipe(upstream);
  }

  private check(request: IncomingMessage, answer: IncomingMessage, raw: Buffer): void {
    let body: string;
    try {
      body = decoded(raw, answer.headers['content-encoding']).toString('utf8');
    } catch {
      this.problems.push(`[${currentTest()}] ${request.method} ${request.url}: the body does not decode`);
      return;
    }
    const found = this.contract.problemsWith({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      status: answer.statusCode ?? 0,
      contentType: answer.headers['content-type'],
      body,
    });
    this.problems.push(...found.map((problem) => `[${currentTest()}] ${problem}`));
  }
}

function withoutHopByHop(rawHeaders: string[]): string[] {
  const named = new Set(HOP_BY_HOP);
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index].toLowerCase() === 'connection') {
      for (const token of rawHeaders[index + 1].split(',')) {
        named.add(token.trim().toLowerCase());
      }
    }
  }
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (!named.has(rawHeaders[index].toLowerCase())) {
      kept.push(rawHeaders[index], rawHeaders[index + 1]);
    }
  }
  return kept;
}

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return body;
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      throw new Error(`content-encoding ${encoding}`);
  }
}

/** The test whose request got the answer (Jest's own state: the proxy runs in the test's process). */
function currentTest(): string {
  return expect.getState().currentTestName ?? 'setup';
}
