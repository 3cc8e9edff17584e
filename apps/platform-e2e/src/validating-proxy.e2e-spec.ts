import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { freePort } from './service-process';
import { ValidatingProxy } from './validating-proxy';

/**
 * The proxy every platform test goes through: it must pass requests and answers unchanged (the
 * browser test depends on Host, Origin and CORS headers arriving as sent) and must catch an answer
 * that differs from the document, or the suite's green would prove nothing.
 */
describe('the validating proxy in front of a service', () => {
  let upstream: Server;
  let upstreamPort: number;
  let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        if (request.url === '/health/live') {
          response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
          response.end('{"status":"ok"}');
        } else if (request.url === '/allocation/saveAllocation') {
          response.writeHead(200, { 'content-length': '0' });
          response.end();
        } else if (request.url === '/allocation/getAllocations/7') {
          // Not the document's ProjectAllocationsDto: `users` is missing.
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"people":[]}');
        } else {
          // Drops the connection without an answer, as a service going down does.
          request.socket.destroy();
        }
      });
    });
    upstreamPort = await new Promise<number>((resolve) =>
      upstream.listen(0, '127.0.0.1', () => {
        const address = upstream.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      }),
    );
  });

  beforeEach(() => {
    seen = [];
  });

  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('forwards method, path, Host, Origin and bodies unchanged, adds no x-forwarded-*, and answers as the service did', async () => {
    const proxy = await ValidatingProxy.start('planner', 0, upstreamPort);
    const response = await fetch(`http://127.0.0.1:${proxy.port}/health/live`, {
      headers: { origin: 'http://127.0.0.1:4321', 'x-custom': 'kept' },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: '/health/live',
        headers: expect.objectContaining({
          host: `127.0.0.1:${proxy.port}`,
          origin: 'http://127.0.0.1:4321',
          'x-custom': 'kept',
        }),
        body: '',
      },
    ]);
    expect(Object.keys(seen[0].headers).filter((name) => name.startsWith('x-forwarded'))).toEqual([]);

    const body = JSON.stringify({ userId: 1, note: 'é'.repeat(50_000) });
    const saved = await fetch(`http://127.0.0.1:${proxy.port}/allocation/saveAllocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(saved.status).toBe(200);
    expect(seen[1]).toMatchObject({ method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await expect(proxy.close()).resolves.toBeUndefined();
  });

  it('fails on close with each answer that differs from the document, naming the test', async () => {
    const proxy = await ValidatingProxy.start('planner', 0, upstreamPort);
    const response = await fetch(`http://127.0.0.1:${proxy.port}/allocation/getAllocations/7`);

    expect(await response.json()).toEqual({ people: [] });
    await expect(proxy.close()).rejects.toThrow(
      /2 answer\(s\) of planner differ from openapi\/planner\.json:\n\[the validating proxy .*naming the test\] GET \/allocation\/getAllocations\/7 → 200: allocations_projectAllocations body must have required property 'users'/,
    );
    // Reported once: a second close (afterAll after a test stopped the service) does not repeat it.
    await expect(proxy.close()).resolves.toBeUndefined();
  });

  it('drops the client connection when the service drops or refuses it, never answering in its place', async () => {
    const proxy = await ValidatingProxy.start('planner', 0, upstreamPort);
    await expect(fetch(`http://127.0.0.1:${proxy.port}/allocation/removeAllocation`)).rejects.toThrow();
    await proxy.close();

    const nobody = await ValidatingProxy.start('planner', 0, await freePort());
    await expect(fetch(`http://127.0.0.1:${nobody.port}/health/live`)).rejects.toThrow();
    await nobody.close();
    // Closed: the port refuses, as a stopped service's would.
    await expect(fetch(`http://127.0.0.1:${nobody.port}/health/live`)).rejects.toThrow();
  });
});
