import { Controller, Get, Headers, UnauthorizedException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { probeEnv, probeService } from '../testing/probe-service';

@Controller('projects')
class ProjectsProbeController {
  /** Stands in for a route behind the JWT guard: no Authorization, no answer. */
  @Get()
  list(@Headers('authorization') authorization: string | undefined): { items: string[] } {
    if (authorization !== 'Bearer good-token') {
      throw new UnauthorizedException();
    }
    return { items: ['Rebrand'] };
  }

  @Get('public')
  open(): { ok: true } {
    return { ok: true };
  }
}

const APP_ORIGIN = 'https://app.example.com';
const DEV_ORIGIN = 'http://localhost:5173';
const OTHER_ORIGIN = 'https://evil.example.net';

/** A service built by `createServiceApp` exactly as the real ones are, under a `v1` prefix. */
function serviceWith(
  corsAllowedOrigins?: string,
  corsAllowedHeaders?: string,
): Promise<NestFastifyApplication> {
  return probeService(
    probeEnv({ CORS_ALLOWED_ORIGINS: corsAllowedOrigins, CORS_ALLOWED_HEADERS: corsAllowedHeaders }),
    [ProjectsProbeController],
    { globalPrefix: 'v1' },
  );
}

/** What a browser sends before `fetch(url, {method, headers: {authorization, content-type}})`. */
function preflight(
  app: NestFastifyApplication,
  url: string,
  origin: string,
  method = 'GET',
  requestHeaders = 'authorization,content-type',
) {
  return app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': requestHeaders,
    },
  });
}

/**
 * Whether a browser lets the page send its request: every header it asked for in the preflight is in
 * `Access-Control-Allow-Headers` (the Fetch standard's CORS-preflight check).
 */
function allowsHeaders(
  response: { headers: Record<string, string | string[] | number | undefined> },
  requestHeaders: string,
): boolean {
  const header = response.headers['access-control-allow-headers'];
  const allowed = (typeof header === 'string' ? header : '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return requestHeaders.split(',').every((name) => allowed.includes(name));
}

const corsHeadersOf = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('CORS (CORS_ALLOWED_ORIGINS)', () => {
  let app: NestFastifyApplication;

  afterEach(() => app.close());

  describe('with an origin list', () => {
    beforeEach(async () => {
      app = await serviceWith(`${APP_ORIGIN},${DEV_ORIGIN}`);
    });

    it('answers an allowed preflight with 204, the methods, headers and max-age, echoing the origin', async () => {
      const response = await preflight(app, '/v1/projects', DEV_ORIGIN, 'POST');

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': DEV_ORIGIN,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
        'access-control-allow-headers':
          'authorization, content-type, idempotency-key, if-match, if-none-match, last-event-id, x-request-id',
        'access-control-max-age': '600',
      });
      expect(response.headers.vary).toContain('Origin');
      expect(response.headers).not.toHaveProperty('access-control-allow-credentials');
    });

    it('answers the preflight before authentication: the route itself would be a 401 without a token', async () => {
      const unauthenticated = await app.inject({ method: 'GET', url: '/v1/projects' });
      const response = await preflight(app, '/v1/projects', APP_ORIGIN);

      expect(unauthenticated.statusCode).toBe(401);
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    });

    it('answers a preflight for an unknown route too, rather than a 404 the browser cannot read', async () => {
      const response = await preflight(app, '/v1/no-such-route', APP_ORIGIN, 'DELETE');

      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    });

    it('gives a disallowed origin no CORS header at all, and its preflight is no 5xx', async () => {
      const preflightResponse = await preflight(app, '/v1/projects', OTHER_ORIGIN);
      const actual = await app.inject({
        method: 'GET',
        url: '/v1/projects/public',
        headers: { origin: OTHER_ORIGIN },
      });

      expect(preflightResponse.statusCode).toBe(404);
      expect(preflightResponse.json()).toEqual({ message: 'Cannot OPTIONS /v1/projects' });
      expect(corsHeadersOf(preflightResponse.headers)).toEqual([]);
      expect(actual.statusCode).toBe(200);
      expect(corsHeadersOf(actual.headers)).toEqual([]);
      expect(actual.headers.vary).toContain('Origin');
    });

    it('does not match origins loosely: another scheme, port or a suffix is another origin', async () => {
      for (const origin of [
        'http://app.example.com',
        'https://app.example.com:8443',
        'https://app.example.com.evil.net',
      ]) {
        const response = await preflight(app, '/v1/projects', origin);

        expect({ origin, headers: corsHeadersOf(response.headers) }).toEqual({ origin, headers: [] });
      }
    });

    it('answers an actual request from an allowed origin with the origin and the headers a page may read', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/projects',
        headers: { origin: APP_ORIGIN, authorization: 'Bearer good-token' },
      });

      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
      expect(response.headers['access-control-expose-headers']).toBe(
        'x-request-id, idempotent-replayed, retry-after, etag, ratelimit, ratelimit-policy',
      );
      expect(response.headers.vary).toContain('Origin');
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('lets the page read error answers too: a 401 and a 404 carry the allowed origin', async () => {
      const unauthorized = await app.inject({
        method: 'GET',
        url: '/v1/projects',
        headers: { origin: APP_ORIGIN },
      });
      const notFound = await app.inject({
        method: 'GET',
        url: '/v1/no-such-route',
        headers: { origin: APP_ORIGIN },
      });

      expect(unauthorized.statusCode).toBe(401);
      expect(unauthorized.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
      expect(notFound.statusCode).toBe(404);
      expect(notFound.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    });
  });

  describe('CORS_ALLOWED_HEADERS', () => {
    const TRACING_HEADERS = 'authorization,traceparent,tracestate,sentry-trace,baggage';

    it('lets a page send the headers it lists besides the defaults (a tracing library in the browser)', async () => {
      app = await serviceWith(APP_ORIGIN, 'traceparent,tracestate,sentry-trace,baggage');

      const response = await preflight(app, '/v1/projects', APP_ORIGIN, 'GET', TRACING_HEADERS);

      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-headers']).toBe(
        'authorization, content-type, idempotency-key, if-match, if-none-match, last-event-id, x-request-id, traceparent, tracestate, sentry-trace, baggage',
      );
      expect(allowsHeaders(response, TRACING_HEADERS)).toBe(true);
    });

    it('allows only the defaults when unset: a browser then blocks a request sending traceparent', async () => {
      app = await serviceWith(APP_ORIGIN);

      const response = await preflight(app, '/v1/projects', APP_ORIGIN, 'GET', TRACING_HEADERS);

      expect(allowsHeaders(response, 'authorization,content-type,idempotency-key,x-request-id')).toBe(true);
      expect(allowsHeaders(response, 'authorization,traceparent')).toBe(false);
      expect(allowsHeaders(response, 'sentry-trace')).toBe(false);
    });
  });

  it('is off without an origin list: a preflight is the 404 it always was, with no CORS header', async () => {
    app = await serviceWith();

    const response = await preflight(app, '/v1/projects', DEV_ORIGIN);
    const actual = await app.inject({
      method: 'GET',
      url: '/v1/projects/public',
      headers: { origin: DEV_ORIGIN },
    });

    expect(response.statusCode).toBe(404);
    expect(corsHeadersOf(response.headers)).toEqual([]);
    expect(corsHeadersOf(actual.headers)).toEqual([]);
  });
});

describe('Cache-Control on authenticated answers', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await serviceWith(APP_ORIGIN);
  });

  afterAll(() => app.close());

  it('is no-store on an answer that needed the bearer token', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/projects',
      headers: { authorization: 'Bearer good-token' },
    });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is no-store on an error answer to a request carrying credentials', async () => {
    const refused = await app.inject({
      method: 'GET',
      url: '/v1/projects',
      headers: { authorization: 'Bearer expired-token', origin: APP_ORIGIN },
    });
    const basic = await app.inject({
      method: 'GET',
      url: '/v1/no-such-route',
      headers: { authorization: 'Basic a2V5OnNlY3JldA==' },
    });

    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(basic.statusCode).toBe(404);
    expect(basic.headers['cache-control']).toBe('no-store');
  });

  it('leaves an answer to a request without credentials alone', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/projects/public' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBeUndefined();
  });
});
