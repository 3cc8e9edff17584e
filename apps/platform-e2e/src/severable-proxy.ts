import { connect, createServer, type Server, type Socket } from 'node:net';

/** One request through the proxy: its head as the browser sent it, and the answer's status. */
export interface ProxiedRequest {
  /** e.g. `GET /v2/events/stream?ticket=... HTTP/1.1`. */
  requestLine: string;
  /** Lower-cased request headers. */
  headers: Record<string, string>;
  /** The status of the answer (`401`), once its first line came back. */
  status?: number;
}

/**
 * A TCP proxy between the browser and a service whose connections the test can cut, as a dropped
 * Wi-Fi or a load balancer's restart would: the browser sees its connection die mid-stream, not a
 * clean end of the answer. While `refuse` is on, it accepts and drops every new connection, so the
 * browser's reconnects fail until the test lets them through. It reads (never alters) the
 * request heads and status lines, to tell what the browser asked and what it was answered.
 */
export class SeverableProxy {
  readonly requests: ProxiedRequest[] = [];
  refuse = false;
  /** Each open connection: the browser's socket and the proxy's to the service. */
  private readonly open = new Map<Socket, Socket>();

  private constructor(
    private readonly server: Server,
    private readonly targetPort: number,
  ) {
    server.on('connection', (client) => this.relay(client));
  }

  static async start(targetPort: number): Promise<SeverableProxy> {
    const server = createServer();
    const proxy = new SeverableProxy(server, targetPort);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  /** Destroys every open connection, both ways, with no proper end of the answer; answers how many. */
  cut(): number {
    const cut = this.open.size;
    for (const [client, upstream] of this.open) {
      client.destroy();
      upstream.destroy();
    }
    this.open.clear();
    return cut;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    if (this.refuse) {
      client.destroy();
      return;
    }
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.open.set(client, upstream);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      // Either side gone: so is the other, as one connection through the proxy.
      socket.on('close', () => {
        this.open.delete(client);
        client.destroy();
        upstream.destroy();
      });
    }
    // Requests on one connection (keep-alive) follow each other: GETs, so no bodies between heads.
    const asked: ProxiedRequest[] = [];
    let head = '';
    client.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      for (let end = head.indexOf('\r\n\r\n'); end >= 0; end = head.indexOf('\r\n\r\n')) {
        const request = parseHead(head.slice(0, end));
        asked.push(request);
        this.requests.push(request);
        head = head.slice(end + 4);
      }
    });
    // A status line starts each answer; an event stream's lines never do.
    upstream.on('data', (chunk: Buffer) => {
      for (const [, status] of chunk.toString('latin1').matchAll(/(?:^|\n)HTTP\/1\.[01] (\d{3}) /g)) {
        const waiting = asked.find((request) => request.status === undefined);
        if (waiting) {
          waiting.status = Number(status);
        }
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

function parseHead(head: string): ProxiedRequest {
  const [requestLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { requestLine, headers };
}
