import { createPublicKey, verify } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  generateTestKeyPair,
  startTestService,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestService,
} from '@platform/testing';
import { MainApiEnv } from '../src/config/main-api.env';
import { mainApiDataSourceOptions } from '../src/database/main-api.data-source';
import { mainApiService } from '../src/main-api.service';
import { ProvisioningService, type ProvisionedCompany } from '../src/provisioning/provisioning.service';

interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

const basic = (apiKey: string, secret: string) =>
  `Basic ${Buffer.from(`${apiKey}:${secret}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('main-api OAuth (e2e)', () => {
  const keys = generateTestKeyPair();
  let service: TestService<MainApiEnv>;
  let dataSource: DataSource;
  let acme: ProvisionedCompany;
  let globex: ProvisionedCompany;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiDataSourceOptions,
      env: {
        JWT_PRIVATE_KEY: keys.privatePem,
        TOKEN_RATE_LIMIT_PER_CLIENT: '1000',
        TOKEN_RATE_LIMIT_PER_IP: '1000',
      },
    });
    dataSource = await new DataSource(mainApiDataSourceOptions(service.env)).initialize();
    const provisioning = new ProvisioningService(dataSource);
    acme = await provisioning.provision({
      companyName: 'Acme',
      email: 'ceo@acme.test',
      firstName: 'Ada',
      lastName: 'L',
    });
    globex = await provisioning.provision({
      companyName: 'Globex',
      email: 'ceo@globex.test',
      firstName: 'Hank',
      lastName: 'S',
    });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await service.close();
  });

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    service.app.inject({ method: 'POST', url, payload, headers: { ...FORM, ...headers } });
  const clientToken = async (company: ProvisionedCompany) =>
    (
      await post('/v1/oauth/token?grant_type=client_credentials', '', {
        authorization: basic(company.apiKey, company.clientSecret),
      })
    ).json<TokenResponse>();
  const passwordToken = async (company: ProvisionedCompany) =>
    (
      await post(
        '/v1/oauth/token',
        form({ grant_type: 'password', username: company.email, password: company.password }),
      )
    ).json<TokenResponse>();
  const getWith = (token: string, url: string) =>
    service.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  describe('client credentials', () => {
    it('issues exactly the token response, with grant_type in the query', async () => {
      const response = await post('/v1/oauth/token?grant_type=client_credentials', '', {
        authorization: basic(acme.apiKey, acme.clientSecret),
      });

      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json<TokenResponse>();
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(Buffer.from(body.refresh_token, 'base64url')).toHaveLength(32);
    });

    it('needs no body at all, as curl -X POST sends it', async () => {
      const response = await service.app.inject({
        method: 'POST',
        url: '/v1/oauth/token?grant_type=client_credentials',
        headers: { authorization: basic(acme.apiKey, acme.clientSecret) },
      });

      expect(response.statusCode).toBe(200);
    });

    it('accepts grant_type as a form field too', async () => {
      const response = await post('/v1/oauth/token', form({ grant_type: 'client_credentials' }), {
        authorization: basic(acme.apiKey, acme.clientSecret),
      });

      expect(response.statusCode).toBe(200);
    });

    it('signs RS256 tokens with the decisions §2 claims, verifiable with the published JWKS', async () => {
      const { access_token } = await clientToken(acme);
      const jwks = (await service.app.inject({ method: 'GET', url: '/v1/.well-known/jwks.json' })).json<{
        keys: { kid: string }[];
      }>();
      const [header, payload, signature] = access_token.split('.');
      const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
        kid: string;
        alg: string;
      };
      const jwk = jwks.keys.find((key) => key.kid === kid);

      expect(alg).toBe('RS256');
      expect(jwk).toBeDefined();
      expect(
        verify(
          'sha256',
          Buffer.from(`${header}.${payload}`),
          createPublicKey({ key: jwk as never, format: 'jwk' }),
          Buffer.from(signature, 'base64url'),
        ),
      ).toBe(true);
      expect(claimsOf(access_token)).toEqual({
        iss: TEST_ISSUER,
        aud: TEST_AUDIENCE,
        sub: expect.stringMatching(/^client:\d+$/),
        company_id: acme.companyId,
        role_id: 1,
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.any(String),
      });
    });

    it.each([
      ['a wrong secret', () => basic(acme.apiKey, 'wrong-secret')],
      ['an unknown api key', () => basic('ak_unknown', acme.clientSecret)],
      ["another company's secret", () => basic(acme.apiKey, globex.clientSecret)],
      ['no Authorization header', () => undefined],
      ['a malformed Basic header', () => 'Basic %%%'],
    ])('answers invalid_client (401) for %s', async (_case, header) => {
      const authorization = header();
      const response = await post(
        '/v1/oauth/token?grant_type=client_credentials',
        '',
        authorization ? { authorization } : {},
      );

      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('Basic');
      expect(response.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    });

    it('answers unsupported_grant_type and invalid_request with 400', async () => {
      const unsupported = await post('/v1/oauth/token?grant_type=authorization_code', '');
      const missing = await post('/v1/oauth/token', '');

      expect(unsupported.statusCode).toBe(400);
      expect(unsupported.json()).toEqual({
        error: 'unsupported_grant_type',
        error_description: expect.any(String),
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        error: 'invalid_request',
        error_description: 'grant_type is required',
      });
    });

    it('answers an over-long field as invalid_request, not a 500', async () => {
      const response = await post(
        '/v1/oauth/token',
        form({ grant_type: 'password', username: 'x'.repeat(5000), password: 'p' }),
      );

      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    });
  });

  it.each([
    ['an api_key with the NUL character in Basic auth', 'client_credentials', { basic: 'a\u0000b:secret' }],
    ['a username with the NUL character', 'password', { form: 'username=a%00b&password=x' }],
  ])('answers %s as a client error, not a 500', async (_case, grantType, input) => {
    const response = await post(
      `/v1/oauth/token?grant_type=${grantType}`,
      'form' in input ? input.form : '',
      'basic' in input ? { authorization: `Basic ${Buffer.from(input.basic).toString('base64')}` } : {},
    );

    expect([400, 401]).toContain(response.statusCode);
    expect(response.json()).toMatchObject({ error: expect.stringMatching(/^invalid_(client|request)$/) });
  });

  describe('password grant', () => {
    it('issues a user token that works on main-api', async () => {
      const { access_token } = await passwordToken(acme);

      expect(claimsOf(access_token)).toMatchObject({
        sub: `user:${acme.userId}`,
        company_id: acme.companyId,
        role_id: 1,
      });
      const me = await getWith(access_token, '/v1/users/me');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ id: acme.userId, email: 'ceo@acme.test', role_id: 1 });
    });

    it('takes the e-mail in any case', async () => {
      const response = await post(
        '/v1/oauth/token',
        form({ grant_type: 'password', username: 'CEO@ACME.TEST', password: acme.password }),
      );

      expect(response.statusCode).toBe(200);
    });

    it.each([
      ['a wrong password', () => ({ username: acme.email, password: 'wrong-password' })],
      ['an unknown user', () => ({ username: 'nobody@acme.test', password: acme.password })],
    ])('answers invalid_grant (400) for %s, without saying which', async (_case, fields) => {
      const response = await post('/v1/oauth/token', form({ grant_type: 'password', ...fields() }));

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Invalid username or password',
      });
    });

    it('answers invalid_request when a field is missing', async () => {
      const response = await post('/v1/oauth/token', form({ grant_type: 'password', username: acme.email }));

      expect(response.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining('password'),
      });
    });
  });

  describe('refresh tokens', () => {
    const refresh = (token: string) => post('/v1/oauth/refreshtoken', form({ refresh_token: token }));

    it('rotates: a refresh gives new tokens, and the new refresh token works once', async () => {
      const first = await passwordToken(acme);

      const second = await refresh(first.refresh_token);
      const third = await refresh(second.json<TokenResponse>().refresh_token);

      expect(second.statusCode).toBe(200);
      expect(second.json<TokenResponse>().refresh_token).not.toBe(first.refresh_token);
      expect(claimsOf(second.json<TokenResponse>().access_token)).toMatchObject({
        sub: `user:${acme.userId}`,
      });
      expect(third.statusCode).toBe(200);
    });

    it('detects reuse: a spent token revokes the whole family', async () => {
      const first = await clientToken(acme);
      const second = (await refresh(first.refresh_token)).json<TokenResponse>();

      const replay = await refresh(first.refresh_token);
      const afterReplay = await refresh(second.refresh_token);

      expect(replay.statusCode).toBe(400);
      expect(replay.json()).toEqual({
        error: 'invalid_grant',
        error_description: expect.stringContaining('already used'),
      });
      expect(afterReplay.statusCode).toBe(400);
      expect(afterReplay.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('lets only one of two concurrent refreshes with the same token succeed', async () => {
      const { refresh_token } = await clientToken(acme);

      const outcomes = await Promise.all([refresh(refresh_token), refresh(refresh_token)]);

      expect(outcomes.map((outcome) => outcome.statusCode).sort()).toEqual([200, 400]);
    });

    it('refuses unknown and expired tokens, and a missing field', async () => {
      const { refresh_token } = await clientToken(acme);
      await dataSource.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 second'");

      expect((await refresh(refresh_token)).json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token has expired',
      });
      expect((await refresh('no-such-token')).json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token is invalid',
      });
      expect((await post('/v1/oauth/refreshtoken', '')).json()).toEqual({
        error: 'invalid_request',
        error_description: 'refresh_token is required',
      });
    });

    it('stores refresh tokens only as hashes', async () => {
      const { refresh_token } = await clientToken(globex);

      const rows = await dataSource.query<{ token_hash: string }[]>('SELECT token_hash FROM refresh_tokens');

      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((row) => row.token_hash)).not.toContain(refresh_token);
    });

    it('stops a deleted user from refreshing', async () => {
      const provisioning = new ProvisioningService(dataSource);
      const leaver = await provisioning.provision({
        companyName: 'Leaver Ltd',
        email: 'leaver@leaver.test',
        firstName: 'L',
        lastName: 'V',
      });
      const { refresh_token } = await passwordToken(leaver);
      await dataSource.query('UPDATE users SET deleted_at = now() WHERE id = $1', [leaver.userId]);

      const response = await refresh(refresh_token);

      expect(response.json()).toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('tenancy', () => {
    it("answers another company's user exactly like a missing one", async () => {
      const { access_token } = await passwordToken(acme);

      const own = await getWith(access_token, `/v1/users/${acme.userId}`);
      const foreign = await getWith(access_token, `/v1/users/${globex.userId}`);
      const missing = await getWith(access_token, '/v1/users/999999');

      expect(own.statusCode).toBe(200);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({
        status: 404,
        name: 'PlatformCustomError',
        code: 'AC003',
        message: `User ${globex.userId} not found`,
      });
      expect(missing.statusCode).toBe(404);
    });

    it('answers a malformed or out-of-range id with a 400, not a database error', async () => {
      const { access_token } = await clientToken(acme);

      for (const id of ['abc', '0', '99999999999', '1.5']) {
        const response = await getWith(access_token, `/v1/users/${id}`);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'AC002' });
      }
    });
  });
});

describe('main-api token endpoint rate limits (e2e)', () => {
  const keys = generateTestKeyPair();
  let service: TestService<MainApiEnv>;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiDataSourceOptions,
      env: {
        JWT_PRIVATE_KEY: keys.privatePem,
        TOKEN_RATE_LIMIT_PER_CLIENT: '5',
        TOKEN_RATE_LIMIT_PER_IP: '8',
      },
    });
  });

  afterAll(() => service.close());

  const attempt = (apiKey: string, ip = '10.0.0.1') =>
    service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token?grant_type=client_credentials',
      headers: { authorization: basic(apiKey, 'guess'), 'x-forwarded-for': ip },
      remoteAddress: ip,
    });

  it('stops brute force on one client with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push((await attempt('ak_target', `10.0.1.${i}`)).statusCode);
    }
    const blocked = await attempt('ak_target', '10.0.2.1');

    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json()).toEqual({
      status: 429,
      name: 'PlatformCustomError',
      code: 'AC007',
      message: 'Too many token requests; retry later',
    });
  });

  it('stops one IP trying many clients', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      statuses.push((await attempt(`ak_spray_${i}`, '10.9.9.9')).statusCode);
    }

    expect(statuses.slice(0, 8).every((status) => status === 401)).toBe(true);
    expect(statuses[8]).toBe(429);
  });
});
