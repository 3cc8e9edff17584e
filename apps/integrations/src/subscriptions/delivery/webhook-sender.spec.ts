import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  const post = (url: string, timeoutMs = 2000) =>
    postWebhook({
      target: { url: new URL(url), address: { address: '127.0.0.1', family: 4 } },
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"type":"projects.updated"}',
      timeoutMs,
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
