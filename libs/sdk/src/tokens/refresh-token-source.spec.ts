import { FakeHttpServer, type RecordedRequest } from '@platform/testing';
import type { ServerResponse } from 'node:http';
import { LoginEndedError, PlatformApiError } from '../errors';
import { createPlatformSdk } from '../platform-sdk';
import { RefreshTokenSource } from './refresh-token-source';

/**
 * main-api's refresh rules, as a real HTTP server: each refresh token works once and answers the
 * next; presenting a spent one ends the login (every token of it stops working). `GET
 * /v1/clients/{id}` stands for any route: 200 with the live access token, 401 otherwise.
 */
class RotatingTokenIssuer {
  readonly refreshes: string[] = [];
  replays = 0;
  /** Answer 401 whatever the bearer (a revoked client). */
  refuseEveryBearer = false;
  /** Answers to give the next refreshes instead of tokens (503 while "unavailable"). */
  readonly refusals: number[] = [];
  private live = new Set(['refresh-0']);
  private readonly spent = new Set<string>();
  private liveAccessToken?: string;
  private issued = 0;

  constructor(private readonly expiresIn = 3600) {}

  readonly handle = (request: RecordedRequest, response: ServerResponse): void => {
    if (request.url === '/v1/oauth/refreshtoken') {
      // Answered a little later, so callers that overlap really do overlap.
      setTimeout(() => this.refresh(request, response), 30);
      return;
    }
    const authorized =
      !this.refuseEveryBearer &&
      this.liveAccessToken !== undefined &&
      request.headers.authorization === `Bearer ${this.liveAccessToken}`;
    answer(response, authorized ? 200 : 401, authorized ? { id: 1, name: 'Northwind' } : { code: 'AC005' });
  };

  private refresh(request: RecordedRequest, response: ServerResponse): void {
    const token = new URLSearchParams(request.body).get('refresh_token') ?? '';
    this.refreshes.push(token);
    const refusal = this.refusals.shift();
    if (refusal !== undefined) {
      answer(response, refusal, { status: refusal, code: 'AC503' }, { 'retry-after': '1' });
      return;
    }
    if (this.spent.has(token)) {
      this.replays += 1;
      this.live.clear();
      this.liveAccessToken = undefined;
    }
    if (!this.live.has(token)) {
      answer(response, 400, { error: 'invalid_grant', error_description: 'refresh token is not valid' });
      return;
    }
    this.live.delete(token);
    this.spent.add(token);
    this.issued += 1;
    const next = `refresh-${this.issued}`;
    this.live.add(next);
    this.liveAccessToken = `access-${this.issued}`;
    answer(response, 200, {
      access_token: this.liveAccessToken,
      token_type: 'Bearer',
      expires_in: this.expiresIn,
      refresh_token: next,
    });
  }
}

function answer(
  response: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

describe('RefreshTokenSource (rotation against a server that ends the login on reuse)', () => {
  let server: FakeHttpServer;
  let issuer: RotatingTokenIssuer;

  beforeEach(async () => {
    issuer = new RotatingTokenIssuer(120);
    server = await FakeHttpServer.start(issuer.handle);
  });

  afterEach(() => server.stop());

  it('gives concurrent callers one refresh and the same access token', async () => {
    const rotated: string[] = [];
    const source = new RefreshTokenSource(server.url, {
      refreshToken: 'refresh-0',
      onRefreshToken: (next) => void rotated.push(next),
    });

    const tokens = await Promise.all(Array.from({ length: 20 }, () => source.accessToken()));

    expect(new Set(tokens)).toEqual(new Set(['access-1']));
    expect(issuer.refreshes).toEqual(['refresh-0']);
    expect(rotated).toEqual(['refresh-1']);
    expect(source.refreshToken).toBe('refresh-1');
  });

  it('renews shortly before expires_in runs out, always with the newest refresh token, never a spent one', async () => {
    let now = 0;
    const source = new RefreshTokenSource(server.url, { refreshToken: 'refresh-0' }, { now: () => now });
    expect(await source.accessToken()).toBe('access-1');

    // expires_in 120 s, renewed 60 s before: still the same token at 59 s, a new one at 61 s.
    now = 59_000;
    expect(await source.accessToken()).toBe('access-1');
    for (const [round, expected] of [
      [1, 'access-2'],
      [2, 'access-3'],
      [3, 'access-4'],
    ] as const) {
      now = round * 61_000;
      const tokens = await Promise.all([source.accessToken(), source.accessToken(), source.accessToken()]);
      expect(tokens).toEqual([expected, expected, expected]);
    }

    expect(issuer.refreshes).toEqual(['refresh-0', 'refresh-1', 'refresh-2', 'refresh-3']);
    expect(issuer.replays).toBe(0);
    expect(source.refreshToken).toBe('refresh-4');
  });

  it('ends the login when a refresh is refused, without sending the spent token again', async () => {
    const source = new RefreshTokenSource(server.url, { refreshToken: 'refresh-unknown' });

    const first = await source.accessToken().catch((error: unknown) => error);
    expect(first).toBeInstanceOf(LoginEndedError);
    expect((first as LoginEndedError).cause).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await expect(source.accessToken()).rejects.toThrow(LoginEndedError);

    expect(issuer.refreshes).toEqual(['refresh-unknown']);
    expect(source.refreshToken).toBeUndefined();
  });

  it('keeps the refresh token after a 503, which main-api answers before spending it', async () => {
    issuer.refusals.push(503);
    const source = new RefreshTokenSource(server.url, { refreshToken: 'refresh-0' });

    await expect(source.accessToken()).rejects.toThrow(PlatformApiError);
    expect(source.refreshToken).toBe('refresh-0');
    expect(await source.accessToken()).toBe('access-1');
    expect(issuer.replays).toBe(0);
  });
});

describe('the SDK clients with a refresh-token login (auth middleware)', () => {
  let server: FakeHttpServer;
  let issuer: RotatingTokenIssuer;

  beforeEach(async () => {
    issuer = new RotatingTokenIssuer();
    server = await FakeHttpServer.start(issuer.handle);
  });

  afterEach(() => server.stop());

  function sdkWith(initialAccessToken?: string) {
    return createPlatformSdk({
      mainApiUrl: server.url,
      plannerUrl: server.url,
      integrationsUrl: server.url,
      auth: {
        refreshToken: 'refresh-0',
        initialAccessToken:
          initialAccessToken === undefined ? undefined : { token: initialAccessToken, expiresIn: 3600 },
      },
    });
  }

  it('sends the bearer it refreshed on the first call', async () => {
    const { mainApi } = sdkWith();

    const answer = await mainApi.GET('/v1/clients/{id}', { params: { path: { id: 1 } } });

    expect(answer.data).toEqual({ id: 1, name: 'Northwind' });
    expect(server.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      ['/v1/oauth/refreshtoken', undefined],
      ['/v1/clients/1', 'Bearer access-1'],
    ]);
  });

  it('answers a 401 with one refresh shared by every refused request, and sends each request again', async () => {
    // A token the server does not take any more (revoked, or expired early by clock skew).
    const { mainApi, planner } = sdkWith('access-stale');

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => mainApi.GET('/v1/clients/{id}', { params: { path: { id: 1 } } })),
    );

    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(issuer.refreshes).toEqual(['refresh-0']);
    const sentWith = server.requests
      .filter((request) => request.url === '/v1/clients/1')
      .map((request) => request.headers.authorization);
    expect(sentWith.filter((bearer) => bearer === 'Bearer access-stale')).toHaveLength(5);
    expect(sentWith.filter((bearer) => bearer === 'Bearer access-1')).toHaveLength(5);
    // The planner's client shares the token source: no second refresh.
    await planner.GET('/health/live');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer access-1');
    expect(issuer.refreshes).toHaveLength(1);
  });

  it('sends a POST refused with 401 again with its body, and only once', async () => {
    const { mainApi } = sdkWith('access-stale');

    const created = await mainApi.POST('/v1/clients', { body: { name: 'Twice' } });
    expect(created.response.status).toBe(200);
    const posts = () =>
      server.requests.filter((request) => request.method === 'POST' && request.url === '/v1/clients');
    expect(posts().map((request) => [request.headers.authorization, request.body])).toEqual([
      ['Bearer access-stale', '{"name":"Twice"}'],
      ['Bearer access-1', '{"name":"Twice"}'],
    ]);

    // A 401 to the new token too is the caller's to see: no loop of refreshes.
    issuer.refuseEveryBearer = true;
    const refused = await mainApi.GET('/v1/clients/{id}', { params: { path: { id: 1 } } });
    expect(refused.response.status).toBe(401);
    expect(issuer.refreshes).toEqual(['refresh-0', 'refresh-1']);
  });

  it('fails the call with LoginEndedError when the refresh after a 401 is refused', async () => {
    const { mainApi } = sdkWith('access-stale');
    issuer.refusals.push(400);

    await expect(mainApi.GET('/v1/clients/{id}', { params: { path: { id: 1 } } })).rejects.toThrow(
      LoginEndedError,
    );
  });
});
