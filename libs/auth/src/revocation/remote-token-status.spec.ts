import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { Principal } from '../principal/principal';
import { RemoteTokenStatus } from './remote-token-status';
import { TokenStatusUnavailableError } from './token-status-unavailable.error';

const principal: Principal = {
  subject: 'user:1',
  companyId: 1,
  roleId: 1,
  userId: 1,
  tokenId: 'j',
  epoch: 0,
};

describe('RemoteTokenStatus', () => {
  let server: Server;
  let url: string;
  const asked: (string | undefined)[] = [];
  let answer = 204;

  beforeAll(async () => {
    server = createServer((request, response) => {
      asked.push(request.headers.authorization);
      setTimeout(() => response.writeHead(answer).end(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/oauth/token-status`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    asked.length = 0;
    answer = 204;
  });

  it('asks main-api with the token itself: 204 is live, 401 is revoked', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });

    await expect(status.isRevoked(principal, 'live.token.text')).resolves.toBe(false);
    answer = 401;
    await expect(status.isRevoked(principal, 'revoked.token.text')).resolves.toBe(true);
    expect(asked).toEqual(['Bearer live.token.text', 'Bearer revoked.token.text']);
  });

  it('counts its answers by outcome in the service registry (token_status_checks_total): live, revoked, unavailable', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });
    const registry = new Registry();
    status.registerMetrics(registry);

    await status.isRevoked(principal, 'live.token.text');
    answer = 401;
    await status.isRevoked(principal, 'revoked.token.text');
    answer = 500;
    await expect(status.isRevoked(principal, 'unknown.token.text')).rejects.toBeInstanceOf(
      TokenStatusUnavailableError,
    );

    const metric = await registry.getSingleMetric('token_status_checks_total')?.get();
    expect(
      Object.fromEntries(metric?.values.map((value) => [value.labels.outcome, value.value]) ?? []),
    ).toEqual({
      live: 1,
      revoked: 1,
      unavailable: 1,
    });
  });

  it('asks once for concurrent first uses of one token', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });

    await Promise.all(Array.from({ length: 5 }, () => status.isRevoked(principal, 'same.token.text')));

    expect(asked).toHaveLength(1);
  });

  it('refuses (503, Retry-After) a token whose status main-api cannot confirm: unreachable, 500 or stalled past the timeout', async () => {
    const unreachable = new RemoteTokenStatus({
      url: 'http://127.0.0.1:1/v1/oauth/token-status',
      timeoutMs: 500,
    });
    const failing = new RemoteTokenStatus({ url, timeoutMs: 1000 });
    const stalled = new RemoteTokenStatus({ url, timeoutMs: 5 });
    answer = 500;

    for (const status of [unreachable, failing, stalled]) {
      const refusal = await status.isRevoked(principal, 'a.b.c').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(TokenStatusUnavailableError);
      expect(refusal).toMatchObject({ retryAfterSeconds: 2 });
      expect((refusal as TokenStatusUnavailableError).getStatus()).toBe(503);
    }
    // The stalled question still reaches the server: let it arrive before the next test counts.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('after three failures in a row, refuses at once during the back-off, then asks again', async () => {
    const failing = new RemoteTokenStatus({ url, timeoutMs: 1000, unreachableBackoffMs: 300 });
    answer = 500;

    for (const token of ['a.b.1', 'a.b.2', 'a.b.3']) {
      await expect(failing.isRevoked(principal, token)).rejects.toBeInstanceOf(TokenStatusUnavailableError);
    }
    await expect(failing.isRevoked(principal, 'a.b.d')).rejects.toMatchObject({ retryAfterSeconds: 1 });
    expect(asked).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 320));
    answer = 401;
    await expect(failing.isRevoked(principal, 'a.b.d')).resolves.toBe(true);
    answer = 204;
    await expect(failing.isRevoked(principal, 'a.b.c')).resolves.toBe(false);
  });

  it('does not back off after a failure followed by an answer', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000, unreachableBackoffMs: 60_000 });

    for (const code of [500, 500, 204, 500, 500, 204]) {
      answer = code;
      await status.isRevoked(principal, `a.b.${asked.length}`).catch(() => undefined);
    }

    expect(asked).toHaveLength(6);
  });
});

describe('RemoteTokenStatus, many tokens at once', () => {
  let server: Server;
  let url: string;
  const requests: { method?: string; url?: string; tokens?: string[] }[] = [];
  let batchRoute = true;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const tokens = body ? (JSON.parse(body) as { tokens: string[] }).tokens : undefined;
        requests.push({ method: request.method, url: request.url, tokens });
        if (request.method === 'POST' && !batchRoute) {
          response.writeHead(404).end();
        } else if (request.method === 'POST') {
          const revoked = (tokens ?? []).map((token) => token.startsWith('revoked'));
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ revoked }));
        } else {
          response.writeHead(request.headers.authorization?.includes('revoked') ? 401 : 204).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/oauth/token-status`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => {
    requests.length = 0;
    batchRoute = true;
  });

  const tokens = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      principal,
      token: `${index % 3 === 0 ? 'revoked' : 'live'}.${index}`,
    }));

  it('asks once per 500 tokens, with the tokens in the body, and answers in their order', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });
    const asked = tokens(501);

    const revoked = await status.revokedAmong(asked);

    expect(revoked).toEqual(asked.map(({ token }) => token.startsWith('revoked')));
    expect(requests.map((request) => [request.method, request.url, request.tokens?.length])).toEqual([
      ['POST', '/v1/oauth/token-status/batch', 500],
      ['POST', '/v1/oauth/token-status/batch', 1],
    ]);
  });

  it('asks once per token when main-api has no batch route', async () => {
    const status = new RemoteTokenStatus({ url, timeoutMs: 1000 });
    batchRoute = false;

    await expect(status.revokedAmong(tokens(3))).resolves.toEqual([true, false, false]);
    expect(requests.map((request) => request.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
  });

  it('refuses to answer (503) when main-api cannot: a revoked login is never taken as live', async () => {
    const status = new RemoteTokenStatus({ url: 'http://127.0.0.1:9/v1/oauth/token-status', timeoutMs: 500 });

    await expect(status.revokedAmong(tokens(2))).rejects.toBeInstanceOf(TokenStatusUnavailableError);
  });
});
