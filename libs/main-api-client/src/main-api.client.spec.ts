import { UpstreamUnavailableError } from '@platform/runtime';
import { FakeHttpServer } from '@platform/testing';
import { MainApiRequestError } from './main-api-request.error';
import { MainApiClient } from './main-api.client';

describe('MainApiClient', () => {
  let mainApi: FakeHttpServer;
  let client: MainApiClient;

  beforeEach(async () => {
    mainApi = await FakeHttpServer.start();
    client = new MainApiClient({ baseUrl: `${mainApi.url}/`, timeoutMs: 1000, retries: 2 });
  });

  afterEach(() => mainApi.stop());

  it("forwards the caller's token and request id and reads the JSON answer", async () => {
    mainApi.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1}]');
    });

    const users = await client.request<{ id: number }[]>({
      method: 'GET',
      path: '/v1/users',
      query: { ids: '1,2', page: undefined },
      caller: { authorization: 'Bearer abc', requestId: 'req-1' },
    });

    expect(users).toEqual([{ id: 1 }]);
    expect(mainApi.requests).toHaveLength(1);
    expect(mainApi.requests[0]).toMatchObject({
      method: 'GET',
      url: '/v1/users?ids=1%2C2',
      headers: expect.objectContaining({ authorization: 'Bearer abc', 'x-request-id': 'req-1' }),
    });
  });

  it('sends the extra headers of a call, without letting them replace its own', async () => {
    await client.request({
      method: 'PUT',
      path: '/v1/clients/1',
      body: { name: 'x' },
      caller: { authorization: 'Bearer abc' },
      headers: { 'x-change-origin': 'JIRA', authorization: 'Bearer forged' },
    });

    expect(mainApi.requests[0]?.headers).toMatchObject({
      'x-change-origin': 'JIRA',
      authorization: 'Bearer abc',
    });
  });

  it('retries an idempotent call after a 503 and succeeds', async () => {
    let calls = 0;
    mainApi.respondWith((_request, response) => {
      calls += 1;
      response.writeHead(calls === 1 ? 503 : 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });

    await expect(client.request({ method: 'GET', path: '/v1/users' })).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
  });

  it('does not retry a POST without an idempotency key', async () => {
    mainApi.respondWith((_request, response) => response.writeHead(503).end());

    await expect(
      client.request({ method: 'POST', path: '/v1/clients', body: { name: 'x' } }),
    ).rejects.toThrow(UpstreamUnavailableError);
    expect(mainApi.requests).toHaveLength(1);
  });

  it('retries a POST that carries an idempotency key, sending the key each time', async () => {
    mainApi.respondWith((_request, response) => response.writeHead(502).end());

    await expect(
      client.request({ method: 'POST', path: '/v1/clients', body: { name: 'x' }, idempotencyKey: 'k-1' }),
    ).rejects.toThrow(UpstreamUnavailableError);
    expect(mainApi.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'k-1',
      'k-1',
      'k-1',
    ]);
  });

  it('gives up with a 503 error when main-api does not answer in time', async () => {
    mainApi.respondWith(() => undefined); // never answers

    const started = Date.now();
    await expect(client.request({ method: 'GET', path: '/v1/users' })).rejects.toThrow(
      UpstreamUnavailableError,
    );
    // One deadline for the call, retries included: never a hang.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('stops calling main-api while it keeps failing, then probes it again after the cooldown', async () => {
    const breaking = new MainApiClient({
      baseUrl: mainApi.url,
      timeoutMs: 1000,
      retries: 0,
      circuitBreaker: { failureThreshold: 2, cooldownMs: 200 },
    });
    mainApi.respondWith((_request, response) => response.writeHead(503).end());
    await expect(breaking.request({ method: 'GET', path: '/v1/users' })).rejects.toThrow(
      UpstreamUnavailableError,
    );
    await expect(breaking.request({ method: 'GET', path: '/v1/users' })).rejects.toThrow(
      UpstreamUnavailableError,
    );
    expect(mainApi.requests).toHaveLength(2);

    await expect(breaking.request({ method: 'GET', path: '/v1/users' })).rejects.toThrow(
      'it failed repeatedly just now',
    );
    expect(mainApi.requests).toHaveLength(2);

    await new Promise((resolve) => setTimeout(resolve, 250));
    mainApi.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await expect(breaking.request({ method: 'GET', path: '/v1/users' })).resolves.toEqual([]);
    await expect(breaking.request({ method: 'GET', path: '/v1/users' })).resolves.toEqual([]);
    expect(mainApi.requests).toHaveLength(4);
  });

  it('answers 503, not a crash, when main-api stalls in the middle of a body', async () => {
    mainApi.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":');
    });

    await expect(client.request({ method: 'GET', path: '/v1/users' })).rejects.toThrow(
      UpstreamUnavailableError,
    );
  });

  it('passes a refusal on with its status and message', async () => {
    mainApi.respondWith((_request, response) => {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":404,"name":"PlatformCustomError","code":"AC003","message":"Project not found"}');
    });

    const failure = client.request({ method: 'GET', path: '/v1/projects/9' });

    await expect(failure).rejects.toThrow(MainApiRequestError);
    await expect(failure).rejects.toMatchObject({
      status: 404,
      upstreamMessage: 'Project not found',
      upstreamCode: 'AC003',
    });
  });

  it('reports main-api down when nothing listens', async () => {
    await mainApi.stop();
    mainApi = await FakeHttpServer.start(); // keep afterEach happy
    const unreachable = new MainApiClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 300, retries: 0 });

    await expect(unreachable.request({ method: 'GET', path: '/v1/users' })).rejects.toThrow(
      'main-api is unavailable',
    );
    await expect(unreachable.ping(AbortSignal.timeout(1000))).rejects.toThrow();
  });
});
