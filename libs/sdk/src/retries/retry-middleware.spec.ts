import { createMainApiClient, type MainApiClient } from '@platform/api-clients';
import { FakeHttpServer, type FakeHandler } from '@platform/testing';
import { retryMiddleware } from './retry-middleware';
import { retryAfterMs } from './retry-policy';

const CLIENT = { id: 1, name: 'Northwind' };

/** Answers `refusals` in turn (status and Retry-After), then 200 with CLIENT; notes when each came. */
function refuseThenAnswer(refusals: [number, string | undefined][], arrivals: number[]): FakeHandler {
  return (_request, response) => {
    arrivals.push(Date.now());
    const refusal = refusals.shift();
    if (refusal === undefined) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CLIENT));
      return;
    }
    const [status, retryAfter] = refusal;
    const headers = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
    response
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(
        JSON.stringify({ status, name: 'PlatformCustomError', code: 'AC007', message: 'Too many requests' }),
      );
  };
}

describe('retryMiddleware (429/503 and Retry-After, over real sockets)', () => {
  let server: FakeHttpServer;
  let client: MainApiClient;
  let arrivals: number[];

  beforeEach(async () => {
    server = await FakeHttpServer.start();
    client = createMainApiClient(server.url);
    client.use(retryMiddleware({ maxAttempts: 3, maxWaitSeconds: 5 }));
    arrivals = [];
  });

  afterEach(() => server.stop());

  it('waits the seconds Retry-After names before sending a GET again, and answers the retry', async () => {
    server.respondWith(refuseThenAnswer([[429, '1']], arrivals));

    const answer = await client.GET('/v1/clients/{id}', { params: { path: { id: 1 } } });

    expect(answer.response.status).toBe(200);
    expect(answer.data).toEqual(CLIENT);
    expect(server.requests).toHaveLength(2);
    // One second asked for; timers may fire a little early, never much.
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(950);
  });

  it('follows 503 too, and a Retry-After given as an HTTP date', async () => {
    server.respondWith(refuseThenAnswer([[503, new Date(Date.now() - 1000).toUTCString()]], arrivals));

    const answer = await client.GET('/v1/clients/{id}', { params: { path: { id: 1 } } });

    expect(answer.response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('sends a PUT again with the same body, and a POST only when it has an Idempotency-Key', async () => {
    server.respondWith(refuseThenAnswer([[429, '0']], arrivals));
    const put = await client.PUT('/v1/clients/{id}', {
      params: { path: { id: 1 } },
      body: { name: 'Northwind Foods' },
    });
    expect(put.response.status).toBe(200);
    expect(server.requests.map((request) => [request.method, request.body])).toEqual([
      ['PUT', '{"name":"Northwind Foods"}'],
      ['PUT', '{"name":"Northwind Foods"}'],
    ]);

    server.requests.length = 0;
    server.respondWith(refuseThenAnswer([[429, '0']], arrivals));
    const keyed = await client.POST('/v1/clients', {
      body: { name: 'Keyed' },
      headers: { 'Idempotency-Key': 'import-42' },
    });
    expect(keyed.response.status).toBe(200);
    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'import-42',
      'import-42',
    ]);
    expect(server.requests[1].body).toBe('{"name":"Keyed"}');
  });

  it('does not repeat a POST without an Idempotency-Key: the caller gets the 429', async () => {
    server.respondWith(refuseThenAnswer([[429, '0']], arrivals));

    const answer = await client.POST('/v1/clients', { body: { name: 'Once' } });

    expect(answer.response.status).toBe(429);
    expect(answer.response.headers.get('retry-after')).toBe('0');
    expect(answer.error).toMatchObject({ code: 'AC007' });
    expect(server.requests).toHaveLength(1);
  });

  it('stops after maxAttempts sends and hands over the last refusal', async () => {
    server.respondWith(
      refuseThenAnswer(
        [
          [429, '0'],
          [503, '0'],
          [429, '0'],
          [429, '0'],
        ],
        arrivals,
      ),
    );

    const answer = await client.GET('/v1/clients/{id}', { params: { path: { id: 1 } } });

    expect(server.requests).toHaveLength(3);
    expect(answer.response.status).toBe(429);
  });

  it('does not wait longer than maxWaitSeconds: a longer Retry-After is handed over at once', async () => {
    server.respondWith(refuseThenAnswer([[429, '3600']], arrivals));
    const started = Date.now();

    const answer = await client.GET('/v1/clients/{id}', { params: { path: { id: 1 } } });

    expect(answer.response.status).toBe(429);
    expect(answer.response.headers.get('retry-after')).toBe('3600');
    expect(server.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits a default second when a 503 names no Retry-After, and leaves other errors alone', async () => {
    server.respondWith(refuseThenAnswer([[503, undefined]], arrivals));
    expect((await client.GET('/v1/clients/{id}', { params: { path: { id: 1 } } })).response.status).toBe(200);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(950);

    server.requests.length = 0;
    server.respondWith(refuseThenAnswer([[500, '0']], arrivals));
    expect((await client.GET('/v1/clients/{id}', { params: { path: { id: 1 } } })).response.status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retryAfterMs (RFC 9110 §10.2.3)', () => {
  const now = Date.parse('2027-01-15T10:00:00Z');

  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Fri, 15 Jan 2027 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Fri, 15 Jan 2027 09:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('-1', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
