import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { postWebhook } from './webhook-sender';

describe('postWebhook', () => {
  let server: Server;
  let port: number;
  let handler: (request: IncomingMessage, response: ServerResponse) => void;
  const received: { host?: string; body: string; headers: IncomingMessage['headers'] }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          host: request.headers.host,
          body: Buffer.concat(chunks).toString(),
          headers: request.headers,
        });
        handler(request, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    received.length = 0;
    handler = (_request, response) => response.writeHead(204).end();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (url: string, timeoutMs = 2000, connectTimeoutMs = 1000) =>
    postWebhook({
      target: { url: new URL(url), address: { address: '127.0.0.1', family: 4 } },
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"type":"projects.updated"}',
      timeoutMs,
      connectTimeoutMs,
    });

  it('connects to the address checked, whatever the host name would resolve to now', async () => {
    const answer = await post(`http://rebound.invalid:${port}/hook`);

    expect(answer).toEqual({ statusCode: 204 });
    expect(received).toEqual([
      {
        host: `rebound.invalid:${port}`,
        body: '{"type":"projects.updated"}',
        headers: expect.objectContaining({ 'webhook-id': 'msg_1', 'content-type': 'application/json' }),
      },
    ]);
  });

  it('does not follow redirects', async () => {
    handler = (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/' }).end();

    expect(await post(`http://127.0.0.1:${port}/hook`)).toEqual({ statusCode: 302 });
    expect(received).toHaveLength(1);
  });

  it('gives up at the deadline', async () => {
    handler = () => undefined;

    expect(await post(`http://127.0.0.1:${port}/slow`, 100)).toEqual({ error: 'timed out after 100 ms' });
  });

  describe('a target that accepts the connection and then says nothing', () => {
    let tarpit: NetServer;
    let tarpitPort: number;
    const held = new Set<Socket>();

    beforeAll(async () => {
      tarpit = createNetServer((socket) => {
        held.add(socket);
        socket.on('close', () => held.delete(socket));
      });
      await new Promise<void>((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
      tarpitPort = (tarpit.address() as AddressInfo).port;
    });

    afterAll(async () => {
      held.forEach((socket) => socket.destroy());
      await new Promise((resolve) => tarpit.close(resolve));
    });

    it('is given up at the connect deadline when the TLS handshake never completes', async () => {
      const startedAt = Date.now();

      expect(await post(`https://127.0.0.1:${tarpitPort}/hook`, 2000, 150)).toEqual({
        error: 'could not connect within 150 ms',
      });
      expect(Date.now() - startedAt).toBeLessThan(1000);
    });

    it('is given up at the whole deadline once connected: the connect deadline no longer runs', async () => {
      expect(await post(`http://127.0.0.1:${tarpitPort}/hook`, 300, 100)).toEqual({
        error: 'timed out after 300 ms',
      });
    });
  });

  it('answers why there is no answer when nobody listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    expect(await post(`http://127.0.0.1:${closedPort}/`)).toEqual({
      error: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
