import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { rsaThumbprint } from '../keys/jwk';
import { StaticKeySource } from '../keys/static-key-source';
import type { PrincipalContext } from '../principal/principal-context';
import { FreshTokenStatus } from '../revocation/fresh-token-status.decorator';
import { RemoteTokenStatus } from '../revocation/remote-token-status';
import { TokenStatusUnavailableError } from '../revocation/token-status-unavailable.error';
import { JwtAuthGuard } from './jwt-auth.guard';
import { JwtStrategy } from './jwt.strategy';
import { VERIFIED_TOKEN_MAX_AGE_MS } from './verified-token-cache';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const settings = { issuer: 'agency-platform', audience: 'agency-platform-api' };
const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function signedToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: 'at+jwt', kid: rsaThumbprint(publicKey) };
  const claims = {
    iss: settings.issuer,
    aud: settings.audience,
    sub: 'user:7',
    company_id: 1,
    role_id: 1,
    iat: now,
    exp: now + 3600,
    jti: randomUUID(),
  };
  const input = `${encode(header)}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

class Routes {
  read(): void {}

  @FreshTokenStatus()
  mintSecret(): void {}
}

/** What the guard sees of one request to one of `Routes`' handlers. */
function requestTo(handler: keyof Routes, token: string): ExecutionContext {
  const request = { headers: { authorization: `Bearer ${token}` } };
  const http = { getRequest: () => request, getResponse: () => ({}), getNext: () => undefined };
  return {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    getType: () => 'http',
    getArgs: () => [request, {}],
    switchToHttp: () => http,
  } as unknown as ExecutionContext;
}

/** The guard's decision: allowed, or the status it refused with (503 with its Retry-After). */
async function outcome(guard: JwtAuthGuard, handler: keyof Routes, token: string): Promise<object> {
  try {
    return { allowed: await guard.canActivate(requestTo(handler, token)) };
  } catch (error) {
    if (error instanceof TokenStatusUnavailableError) {
      return { status: error.getStatus(), retryAfterSeconds: error.retryAfterSeconds };
    }
    if (error instanceof UnauthorizedException) {
      return { status: 401, message: error.message };
    }
    throw error;
  }
}

const LIVE = { allowed: true };
const UNCONFIRMED = { status: 503, retryAfterSeconds: expect.any(Number) as number };
const REVOKED = { status: 401, message: 'Access token has been revoked' };

describe('JwtAuthGuard: revocation fails closed', () => {
  // main-api's token status, as the test sets it: answers 204, 401 or 500, or stalls past the timeout.
  let mode: 'live' | 'revoked' | 'error' | 'stall' = 'live';
  let asked = 0;
  let server: Server;
  let url: string;
  const stalled: ServerResponse[] = [];
  let guard: JwtAuthGuard;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    // Registers the 'jwt' passport strategy the guard runs.
    new JwtStrategy(settings, new StaticKeySource([publicKey]));
    server = createServer((_request, response) => {
      asked += 1;
      switch (mode) {
        case 'live':
          response.writeHead(204).end();
          return;
        case 'revoked':
          response.writeHead(401).end();
          return;
        case 'error':
          response.writeHead(500).end();
          return;
        case 'stall':
          stalled.push(response);
          return;
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/oauth/token-status`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    mode = 'live';
    asked = 0;
    clockOffsetMs = 0;
    const now = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => now() + clockOffsetMs);
    const principals = { set: () => undefined } as unknown as PrincipalContext;
    const status = new RemoteTokenStatus({ url, timeoutMs: 100, unreachableBackoffMs: 1_000 });
    guard = new JwtAuthGuard(new Reflector(), principals, status);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    for (const response of stalled.splice(0)) {
      response.destroy();
    }
  });

  it.each(['stall', 'error'] as const)(
    'refuses a token never confirmed with 503 + Retry-After while main-api\'s token status answers "%s", and stops asking for a back-off after three failures',
    async (failure) => {
      mode = failure;

      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect(await outcome(guard, 'read', signedToken())).toEqual(UNCONFIRMED);
      }
      // Three unanswered in a row: refused at once for the back-off, main-api is not asked.
      expect(await outcome(guard, 'read', signedToken())).toEqual({ status: 503, retryAfterSeconds: 1 });
      expect(asked).toBe(3);

      // Once main-api answers again (after the back-off), tokens are confirmed and let in.
      mode = 'live';
      clockOffsetMs += 1_001;
      expect(await outcome(guard, 'read', signedToken())).toEqual(LIVE);
    },
  );

  it.each(['stall', 'error'] as const)(
    'keeps a token confirmed live working for 30 s while the token status answers "%s", but not on a route that mints secrets, nor after 30 s',
    async (failure) => {
      const token = signedToken();
      expect(await outcome(guard, 'read', token)).toEqual(LIVE);
      mode = failure;

      clockOffsetMs = VERIFIED_TOKEN_MAX_AGE_MS - 1_000;
      expect(await outcome(guard, 'read', token)).toEqual(LIVE);
      expect(await outcome(guard, 'mintSecret', token)).toEqual(UNCONFIRMED);
      expect(await outcome(guard, 'read', token)).toEqual(LIVE);

      clockOffsetMs = VERIFIED_TOKEN_MAX_AGE_MS + 1;
      expect(await outcome(guard, 'read', token)).toEqual(UNCONFIRMED);
    },
  );

  it('asks afresh on a route that mints secrets: a token revoked since it was confirmed is refused there, then everywhere', async () => {
    const token = signedToken();
    expect(await outcome(guard, 'read', token)).toEqual(LIVE);
    expect(await outcome(guard, 'mintSecret', token)).toEqual(LIVE);
    expect(asked).toBe(2);

    mode = 'revoked';
    expect(await outcome(guard, 'mintSecret', token)).toEqual(REVOKED);
    expect(await outcome(guard, 'read', token)).toEqual(REVOKED);
  });

  it('keeps a revoked token revoked while main-api stalls or errors', async () => {
    const token = signedToken();
    mode = 'revoked';
    expect(await outcome(guard, 'read', token)).toEqual(REVOKED);

    for (const failure of ['stall', 'error'] as const) {
      mode = failure;
      expect(await outcome(guard, 'read', token)).toEqual(REVOKED);
      expect(await outcome(guard, 'mintSecret', token)).toEqual(REVOKED);
    }
    expect(asked).toBe(1);
  });
});
