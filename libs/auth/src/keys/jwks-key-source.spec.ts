import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VerifiedTokenCache } from '../jwt/verified-token-cache';
import type { Principal } from '../principal/principal';
import { rsaThumbprint, toPublicJwk } from './jwk';
import { JWKS_CACHE_TTL_MS, JWKS_RETRY_AFTER_FAILURE_MS, JwksKeySource } from './jwks-key-source';

const pairA = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyA = pairA.publicKey;
const keyB = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
const kidA = rsaThumbprint(keyA);
const kidB = rsaThumbprint(keyB);

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token signed with key A (only what this model of the guard reads: kid, exp, signature). */
function tokenSignedWithA(jti: string, nowMs: number): string {
  const input = `${encode({ alg: 'RS256', typ: 'at+jwt', kid: kidA })}.${encode({ exp: nowMs / 1000 + 3600, jti })}`;
  return `${input}.${sign('sha256', Buffer.from(input), pairA.privateKey).toString('base64url')}`;
}

/**
 * The path a request takes through the JWT guard: a token verified recently is accepted from the
 * verified-token cache; otherwise its signature is checked with the key the source has for its kid.
 */
function guardPath(source: JwksKeySource, now: () => number, verified = new VerifiedTokenCache()) {
  const principal: Principal = {
    subject: 'user:1',
    companyId: 1,
    roleId: 1,
    userId: 1,
    tokenId: 'j',
    epoch: 0,
  };
  return async (token: string): Promise<boolean> => {
    if (verified.get(token, now())) {
      return true;
    }
    const [header = '', payload = '', signature = ''] = token.split('.');
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
    const key = await source.keyFor(kid);
    const valid =
      key !== undefined &&
      verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
    if (valid) {
      verified.remember(token, principal, now());
    }
    return valid;
  };
}

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
  let clock: number;
  const now = () => clock;

  beforeEach(async () => {
    endpoint = new JwksEndpoint();
    await endpoint.start();
    clock = 1_800_000_000_000;
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

    const throttled = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, now });
    await throttled.keyFor(kidA);
    await throttled.keyFor('unknown-1');
    await throttled.keyFor('unknown-2');
    expect(endpoint.fetches).toBe(3);
  });

  it('by default, sees a key rotated in within 30 s of an unknown kid', async () => {
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, now });
    await source.keyFor(kidA);
    endpoint.published = [toPublicJwk(keyB), toPublicJwk(keyA)];

    clock += 29_999;
    expect(await source.keyFor(kidB)).toBeUndefined();
    clock += 1;
    expect((await source.keyFor(kidB))?.equals(keyB)).toBe(true);
    expect(endpoint.fetches).toBe(2);
  });

  it('by default, forgets a key withdrawn from the JWKS within 30 s', async () => {
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, now });
    await source.keyFor(kidA);
    endpoint.published = [toPublicJwk(keyB)];

    clock += JWKS_CACHE_TTL_MS - 1;
    expect((await source.keyFor(kidA))?.equals(keyA)).toBe(true);
    clock += 1;
    expect(await source.keyFor(kidA)).toBeUndefined();
    expect(JWKS_CACHE_TTL_MS).toBeLessThanOrEqual(30_000);
  });

  it('stops verifying a key withdrawn from the JWKS within 60 s, verified-token cache included', async () => {
    const verifies = guardPath(new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, now }), now);
    const start = clock;
    const early = tokenSignedWithA('early', start);
    expect(await verifies(early)).toBe(true);

    const withdrawnAt = start + 1;
    endpoint.published = [toPublicJwk(keyB)];
    // The worst case: a token first seen just before the cached JWKS expires, then remembered.
    const late = tokenSignedWithA('late', start);
    clock = start + JWKS_CACHE_TTL_MS - 1;
    expect(await verifies(late)).toBe(true);
    clock = withdrawnAt + 59_000;
    expect(await verifies(late)).toBe(true);

    clock = withdrawnAt + 60_000;
    expect(await verifies(late)).toBe(false);
    expect(await verifies(early)).toBe(false);
    expect(await verifies(tokenSignedWithA('fresh', clock))).toBe(false);
    expect(endpoint.fetches).toBe(2);
  });

  it('keeps the last known keys while main-api fails, and tries again within seconds', async () => {
    const source = new JwksKeySource({ url: endpoint.url, timeoutMs: 1000, now });
    await source.keyFor(kidA);
    endpoint.status = 503;

    clock += JWKS_CACHE_TTL_MS;
    expect((await source.keyFor(kidA))?.equals(keyA)).toBe(true);
    clock += JWKS_RETRY_AFTER_FAILURE_MS - 1;
    expect((await source.keyFor(kidA))?.equals(keyA)).toBe(true);
    expect(endpoint.fetches).toBe(2);

    // main-api is back, and has withdrawn the key meanwhile.
    endpoint.status = 200;
    endpoint.published = [toPublicJwk(keyB)];
    clock += 1;
    expect(await source.keyFor(kidA)).toBeUndefined();
    expect(endpoint.fetches).toBe(3);
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
