import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rsaThumbprint, toPublicJwk } from './jwk';
import { JwksKeySource } from './jwks-key-source';

const keyA = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
const keyB = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
const kidA = rsaThumbprint(keyA);
const kidB = rsaThumbprint(keyB);

/** A JWKS endpoint whose answer the test changes (this lib sits below @platform/testing). */
class JwksEndpoint {
  published: object[] = [toPublicJwk(keyA)];
  status = 200;
  fetches = 0;
  private readonly server: Server = createServer((_request, response) => {
    this.fetches += 1;
    response
      .writeHead(this.status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: this.published }));
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1/.well-known/jwks.json`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('JwksKeySource', () => {
  let endpoint: JwksEndpoint;

  beforeEach(async () => {
    endpoint = new JwksEndpoint();
    await endpoint.start();
  });

  afterEach(() => endpoint.stop());

  it('fetches once and serves known kids from its cache', async () => {
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000 });

    const first = await source.keyFor(kidA);
    const second = await source.keyFor(kidA);

    expect(first?.equals(keyA)).toBe(true);
    expect(second?.equals(keyA)).toBe(true);
    expect(endpoint.fetches).toBe(1);
  });

  it('shares one fetch between concurrent requests', async () => {
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000 });

    await Promise.all([source.keyFor(kidA), source.keyFor(kidA), source.keyFor(kidA)]);

    expect(endpoint.fetches).toBe(1);
  });

  it('refetches on an unknown kid (a rotated-in key), but not more often than allowed', async () => {
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, minRefreshIntervalMs: 0 });
    await source.keyFor(kidA);
    endpoint.published = [toPublicJwk(keyB), toPublicJwk(keyA)];

    expect((await source.keyFor(kidB))?.equals(keyB)).toBe(true);
    expect(endpoint.fetches).toBe(2);

    const throttled = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, minRefreshIntervalMs: 60_000 });
    await throttled.keyFor(kidA);
    await throttled.keyFor('unknown-1');
    await throttled.keyFor('unknown-2');
    expect(endpoint.fetches).toBe(3);
  });

  it('keeps the last known keys while main-api fails', async () => {
    const source = new JwksKeySource({
      url: endpoint.url,
      timeoutMs: 1000,
      cacheTtlMs: 0,
      minRefreshIntervalMs: 0,
    });
    await source.keyFor(kidA);
    endpoint.status = 503;

    expect((await source.keyFor(kidA))?.equals(keyA)).toBe(true);
  });

  it('ignores entries that are not RS256 signing keys', async () => {
    endpoint.published = [
      { ...toPublicJwk(keyA), alg: 'HS256' },
      { ...toPublicJwk(keyB), use: 'enc' },
      { kty: 'oct', kid: 'x', k: 'c2VjcmV0' },
    ];
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000 });

    expect(await source.keyFor(kidA)).toBeUndefined();
    expect(await source.keyFor(kidB)).toBeUndefined();
    expect(await source.keyFor('x')).toBeUndefined();
  });
});
