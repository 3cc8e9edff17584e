import { createHash, createPublicKey, randomBytes, scryptSync, verify } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '@platform/auth';
import type { Role } from '@platform/contracts';
import {
  generateTestKeyPair,
  signTestToken,
  startTestService,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestService,
} from '@platform/testing';
import { MainApiEnv } from '../src/config/main-api.env';
import { DatabaseTokenStatus } from '../src/oauth/revocation/database-token-status';
import { mainApiOwnerDataSourceOptions } from '../src/database/main-api.data-source';
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
      dataSourceOptions: mainApiOwnerDataSourceOptions,
      env: {
        JWT_PRIVATE_KEY: keys.privatePem,
        TOKEN_RATE_LIMIT_PER_CLIENT: '1000',
        TOKEN_RATE_LIMIT_PER_IP: '1000',
      },
    });
    dataSource = await new DataSource(mainApiOwnerDataSourceOptions(service.env)).initialize();
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
  const refresh = (token: string, company?: ProvisionedCompany) =>
    post(
      '/v1/oauth/refreshtoken',
      form({ refresh_token: token }),
      company ? { authorization: basic(company.apiKey, company.clientSecret) } : {},
    );
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

    it('signs RS256 tokens with the docs/spec/decisions.md §2 claims, verifiable with the published JWKS', async () => {
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
        sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        client_id: acme.apiKey,
        epoch: 0,
      });
    });

    it('stores client secrets as SHA-256, and upgrades one still stored as scrypt on its first use', async () => {
      const secret = 'a-secret-issued-before-sha256-hashing-existed-0123456789';
      const salt = randomBytes(16);
      const legacy = [
        'scrypt',
        1024,
        8,
        1,
        salt.toString('base64url'),
        scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url'),
      ].join('$');
      await dataSource.query(
        `INSERT INTO api_clients (company_id, name, api_key, secret_hash, role_id) VALUES ($1, 'Legacy', 'ak_legacy', $2, 2)`,
        [acme.companyId, legacy],
      );
      const storedHash = async () =>
        (
          await dataSource.query<{ secret_hash: string }[]>(
            "SELECT secret_hash FROM api_clients WHERE api_key = 'ak_legacy'",
          )
        )[0].secret_hash;
      const issue = () =>
        post('/v1/oauth/token?grant_type=client_credentials', '', {
          authorization: basic('ak_legacy', secret),
        });

      const first = await issue();
      const upgraded = await storedHash();
      const second = await issue();

      expect(first.statusCode).toBe(200);
      expect(upgraded).toBe(`sha256$${createHash('sha256').update(secret).digest('hex')}`);
      expect(second.statusCode).toBe(200);
      expect(claimsOf(second.json<TokenResponse>().access_token)).toMatchObject({ role_id: 2 });
      expect(
        (
          await post('/v1/oauth/token?grant_type=client_credentials', '', {
            authorization: basic('ak_legacy', 'wrong'),
          })
        ).statusCode,
      ).toBe(401);
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
      const unsupported = await post(
        '/v1/oauth/token?grant_type=urn:ietf:params:oauth:grant-type:device_code',
        '',
      );
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
      const second = (await refresh(first.refresh_token, acme)).json<TokenResponse>();

      const replay = await refresh(first.refresh_token, acme);
      const afterReplay = await refresh(second.refresh_token, acme);

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

      const outcomes = await Promise.all([refresh(refresh_token, acme), refresh(refresh_token, acme)]);

      expect(outcomes.map((outcome) => outcome.statusCode).sort()).toEqual([200, 400]);
    });

    it('refuses unknown and expired tokens, and a missing field', async () => {
      const { refresh_token } = await clientToken(acme);
      await dataSource.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 second'");

      expect((await refresh(refresh_token, acme)).json()).toEqual({
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

  describe('refresh tokens, bound to their client and to an absolute lifetime', () => {
    it('refreshes a client-credentials login at /oauth/refreshtoken with the refresh_token form field alone, as the interface documents', async () => {
      const { refresh_token } = await clientToken(acme);

      // Exactly the interface's request: form field refresh_token, nothing else.
      const documented = await service.app.inject({
        method: 'POST',
        url: '/v1/oauth/refreshtoken',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `refresh_token=${encodeURIComponent(refresh_token)}`,
      });

      expect(documented.statusCode).toBe(200);
      const rotated = documented.json<TokenResponse>();
      expect(rotated).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect((await getWith(rotated.access_token, '/v1/clients')).statusCode).toBe(200);
      // Single use and reuse detection still hold: the spent token is refused and ends the login.
      expect((await refresh(refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
      expect((await refresh(rotated.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('checks client credentials presented at /oauth/refreshtoken, spending nothing on a refusal', async () => {
      const { refresh_token } = await clientToken(acme);

      const wrongSecret = await post('/v1/oauth/refreshtoken', form({ refresh_token }), {
        authorization: basic(acme.apiKey, 'not-the-secret'),
      });
      const idWithoutSecret = await post(
        '/v1/oauth/refreshtoken',
        form({ refresh_token, client_id: acme.apiKey }),
      );
      const otherClient = await refresh(refresh_token, globex);
      const owner = await refresh(refresh_token, acme);

      expect(wrongSecret.statusCode).toBe(401);
      expect(wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
      expect(idWithoutSecret.statusCode).toBe(401);
      expect(otherClient.statusCode).toBe(400);
      expect(otherClient.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'The refresh token was issued to another client',
      });
      expect(owner.statusCode).toBe(200);
    });

    it('binds a client-credentials refresh token to its client at /oauth/token (RFC 6749 §6), spending nothing on a refusal', async () => {
      const { refresh_token } = await clientToken(acme);
      const grant = (headers: Record<string, string> = {}) =>
        post('/v1/oauth/token', form({ grant_type: 'refresh_token', refresh_token }), headers);

      const anonymous = await grant();
      const otherClient = await grant({ authorization: basic(globex.apiKey, globex.clientSecret) });
      const owner = await grant({ authorization: basic(acme.apiKey, acme.clientSecret) });

      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'invalid_client' });
      expect(otherClient.statusCode).toBe(400);
      expect(owner.statusCode).toBe(200);
    });

    it('ends a login at its absolute lifetime, however often it rotates', async () => {
      const first = await passwordToken(acme);
      const second = (await refresh(first.refresh_token)).json<TokenResponse>();
      const family = await dataSource.query<{ family_expires_at: Date; expires_at: Date }[]>(
        `SELECT family_expires_at, expires_at FROM refresh_tokens
          WHERE family_id = (SELECT family_id FROM refresh_tokens ORDER BY created_at DESC LIMIT 1)`,
      );
      await dataSource.query(
        "UPDATE refresh_tokens SET family_expires_at = now() - interval '1 second' WHERE family_id = (SELECT family_id FROM refresh_tokens ORDER BY created_at DESC LIMIT 1)",
      );

      const third = await refresh(second.refresh_token);

      expect(new Set(family.map((row) => row.family_expires_at.getTime())).size).toBe(1);
      for (const row of family) {
        expect(row.expires_at.getTime()).toBeLessThanOrEqual(row.family_expires_at.getTime());
      }
      expect(third.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token has expired',
      });
    });
  });

  describe('revocation of access tokens', () => {
    const status = (token: string) =>
      service.app.inject({
        method: 'GET',
        url: '/v1/oauth/token-status',
        headers: { authorization: `Bearer ${token}` },
      });
    const newCompany = async (name: string) =>
      new ProvisioningService(dataSource).provision({
        companyName: name,
        email: `ceo@${name.toLowerCase().replace(/\W+/g, '-')}.test`,
        firstName: name,
        lastName: 'C',
      });

    it('answers 204 for a live token', async () => {
      const { access_token } = await passwordToken(acme);

      expect((await status(access_token)).statusCode).toBe(204);
    });

    it("ends a user's tokens when the user is deleted", async () => {
      const company = await newCompany('Revoke Deleted');
      const { access_token } = await passwordToken(company);
      await dataSource.query('UPDATE users SET deleted_at = now() WHERE id = $1', [company.userId]);

      const answer = await getWith(access_token, '/v1/clients');

      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'AC005', message: 'Access token has been revoked' });
      expect((await status(access_token)).statusCode).toBe(401);
    });

    it("ends a user's tokens when its role changes; a refreshed token carries the new role", async () => {
      const company = await newCompany('Revoke Role');
      const login = await passwordToken(company);
      await dataSource.query('UPDATE users SET role_id = 3 WHERE id = $1', [company.userId]);

      const old = await getWith(login.access_token, '/v1/clients');
      const refreshed = (await refresh(login.refresh_token)).json<TokenResponse>();

      expect(old.statusCode).toBe(401);
      expect(claimsOf(refreshed.access_token)).toMatchObject({ role_id: 3, epoch: 1 });
      expect((await getWith(refreshed.access_token, '/v1/clients')).statusCode).toBe(200);
    });

    it("ends an API client's tokens when it is revoked, and it gets no new one", async () => {
      const company = await newCompany('Revoke Client');
      const { access_token } = await clientToken(company);
      await dataSource.query('UPDATE api_clients SET revoked_at = now() WHERE api_key = $1', [
        company.apiKey,
      ]);

      expect((await getWith(access_token, '/v1/clients')).statusCode).toBe(401);
      expect((await status(access_token)).statusCode).toBe(401);
      expect(
        (
          await post('/v1/oauth/token?grant_type=client_credentials', '', {
            authorization: basic(company.apiKey, company.clientSecret),
          })
        ).statusCode,
      ).toBe(401);
    });

    it('ends the access tokens of a login whose refresh family was revoked for reuse', async () => {
      const company = await newCompany('Revoke Family');
      const login = await passwordToken(company);
      const next = (await refresh(login.refresh_token)).json<TokenResponse>();
      const other = await passwordToken(company);
      expect((await getWith(next.access_token, '/v1/clients')).statusCode).toBe(200);

      await refresh(login.refresh_token); // a replay: the whole family is revoked

      expect((await status(login.access_token)).statusCode).toBe(401);
      expect((await status(next.access_token)).statusCode).toBe(401);
      // Another login of the same user is another family, untouched.
      expect((await status(other.access_token)).statusCode).toBe(204);
    });

    it('answers many logins of several companies in one question, each as it would be answered alone', async () => {
      const first = await newCompany('Batch One');
      const second = await newCompany('Batch Two');
      const replayed = await passwordToken(first);
      await refresh(replayed.refresh_token);
      await refresh(replayed.refresh_token); // a replay: the family is revoked
      const demoted = await passwordToken(second);
      await dataSource.query('UPDATE users SET role_id = 3 WHERE id = $1', [second.userId]);
      const tokens = [
        (await passwordToken(first)).access_token,
        replayed.access_token,
        demoted.access_token,
        (await clientToken(second)).access_token,
        (await passwordToken(acme)).access_token,
      ];
      const principalOf = (token: string): Principal => {
        const claims = claimsOf(token) as {
          sub: string;
          company_id: number;
          role_id: Role;
          jti: string;
          sid?: string;
          epoch?: number;
        };
        return {
          subject: claims.sub,
          companyId: claims.company_id,
          roleId: claims.role_id,
          tokenId: claims.jti,
          ...(claims.sid && { sessionId: claims.sid }),
          epoch: claims.epoch ?? 0,
        };
      };
      const alone = await Promise.all(tokens.map(async (token) => (await status(token)).statusCode === 401));
      const together = await service.app
        .get(DatabaseTokenStatus)
        .revokedAmong(tokens.map((token) => ({ principal: principalOf(token), token })));

      expect(alone).toEqual([false, true, true, false, false]);
      expect(together).toEqual(alone);
      // Over HTTP, as the planner asks: no credential but the tokens, each verified.
      // Signed with another key under the platform's key id: its signature does not verify.
      const { kid } = JSON.parse(Buffer.from(tokens[0].split('.')[0], 'base64url').toString('utf8')) as {
        kid: string;
      };
      const unsigned = signTestToken({
        keys: generateTestKeyPair(),
        header: { kid },
        companyId: first.companyId,
        subject: `user:${first.userId}`,
        issuer: claimsOf(tokens[0]).iss as string,
        audience: claimsOf(tokens[0]).aud as string,
      });
      const batch = await post(
        '/v1/oauth/token-status/batch',
        JSON.stringify({ tokens: [...tokens, unsigned, 'x'] }),
        {
          'content-type': 'application/json',
        },
      );
      expect({ status: batch.statusCode, body: batch.json() }).toEqual({
        status: 200,
        body: { revoked: [...alone, true, true] },
      });
      for (const tokens of [[], Array.from({ length: 501 }, () => 'x'), [42]]) {
        const refused = await post('/v1/oauth/token-status/batch', JSON.stringify({ tokens }), {
          'content-type': 'application/json',
        });
        expect(refused.statusCode).toBe(400);
      }
      // A revoked family is looked for in the login's own company only.
      const elsewhere = {
        ...principalOf(tokens[4]),
        sessionId: principalOf(replayed.access_token).sessionId,
      };
      expect(
        await service.app.get(DatabaseTokenStatus).revokedAmong([{ principal: elsewhere, token: '' }]),
      ).toEqual([false]);
    });
  });

  describe('client_secret_post (RFC 6749 §2.3.1)', () => {
    const post_ = (company: ProvisionedCompany) => ({
      client_id: company.apiKey,
      client_secret: company.clientSecret,
    });

    it('authenticates the client with client_id and client_secret in the form, for the grant and both refresh forms', async () => {
      const grant = await post('/v1/oauth/token', form({ grant_type: 'client_credentials', ...post_(acme) }));
      const viaToken = await post(
        '/v1/oauth/token',
        form({
          grant_type: 'refresh_token',
          refresh_token: grant.json<TokenResponse>().refresh_token,
          ...post_(acme),
        }),
      );
      const viaRefreshToken = await post(
        '/v1/oauth/refreshtoken',
        form({ refresh_token: viaToken.json<TokenResponse>().refresh_token, ...post_(acme) }),
      );

      expect(grant.statusCode).toBe(200);
      expect(claimsOf(grant.json<TokenResponse>().access_token)).toMatchObject({
        company_id: acme.companyId,
      });
      expect(viaToken.statusCode).toBe(200);
      expect(viaRefreshToken.statusCode).toBe(200);
    });

    it('refuses two authentication methods at once, and a secret without its client_id (invalid_request)', async () => {
      const both = await post('/v1/oauth/token', form({ grant_type: 'client_credentials', ...post_(acme) }), {
        authorization: basic(acme.apiKey, acme.clientSecret),
      });
      const otherIdBesideBasic = await post(
        '/v1/oauth/token',
        form({ grant_type: 'client_credentials', client_id: globex.apiKey }),
        { authorization: basic(acme.apiKey, acme.clientSecret) },
      );
      const secretAlone = await post(
        '/v1/oauth/token',
        form({ grant_type: 'client_credentials', client_secret: acme.clientSecret }),
      );

      for (const response of [both, otherIdBesideBasic, secretAlone]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: 'invalid_request' });
      }
    });

    it('accepts the same client_id beside Basic, and answers a client_id without secret or a wrong secret with invalid_client', async () => {
      const sameIdBesideBasic = await post(
        '/v1/oauth/token',
        form({ grant_type: 'client_credentials', client_id: acme.apiKey }),
        { authorization: basic(acme.apiKey, acme.clientSecret) },
      );
      const idAlone = await post(
        '/v1/oauth/token',
        form({ grant_type: 'client_credentials', client_id: acme.apiKey }),
      );
      const wrongSecret = await post(
        '/v1/oauth/token',
        form({ grant_type: 'client_credentials', client_id: acme.apiKey, client_secret: 'wrong' }),
      );

      expect(sameIdBesideBasic.statusCode).toBe(200);
      expect(idAlone.statusCode).toBe(401);
      expect(idAlone.json()).toMatchObject({ error: 'invalid_client' });
      expect(wrongSecret.statusCode).toBe(401);
      expect(wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
    });
  });

  describe('grant_type=refresh_token at /oauth/token (RFC 6749 §6)', () => {
    const refreshAtToken = (token: string, company?: ProvisionedCompany) =>
      post(
        '/v1/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: token }),
        company ? { authorization: basic(company.apiKey, company.clientSecret) } : {},
      );

    it('rotates a login exactly as /oauth/refreshtoken does, the two forms taking turns', async () => {
      const first = await passwordToken(acme);

      const second = await refreshAtToken(first.refresh_token);
      const third = await refresh(second.json<TokenResponse>().refresh_token);
      const fourth = await refreshAtToken(third.json<TokenResponse>().refresh_token);

      expect(second.statusCode).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(Object.keys(second.json<TokenResponse>()).sort()).toEqual([
        'access_token',
        'expires_in',
        'refresh_token',
        'token_type',
      ]);
      expect(claimsOf(second.json<TokenResponse>().access_token)).toMatchObject({
        sub: `user:${acme.userId}`,
        sid: claimsOf(first.access_token).sid,
      });
      expect(third.statusCode).toBe(200);
      expect(fourth.statusCode).toBe(200);
    });

    it('detects reuse across the two forms: a token spent at one and replayed at the other ends the login', async () => {
      const first = await clientToken(acme);
      const second = (await refreshAtToken(first.refresh_token, acme)).json<TokenResponse>();

      const replay = await refresh(first.refresh_token, acme);
      const afterReplay = await refreshAtToken(second.refresh_token, acme);

      expect(replay.json()).toEqual({
        error: 'invalid_grant',
        error_description: expect.stringContaining('already used'),
      });
      expect(afterReplay.statusCode).toBe(400);
      expect(afterReplay.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it("keeps a client's refresh token to that client, spending nothing on a refusal", async () => {
      const { refresh_token } = await clientToken(acme);

      const anonymous = await refreshAtToken(refresh_token);
      const otherClient = await refreshAtToken(refresh_token, globex);
      const owner = await refreshAtToken(refresh_token, acme);

      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'invalid_client' });
      expect(otherClient.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'The refresh token was issued to another client',
      });
      expect(owner.statusCode).toBe(200);
    });

    it('answers invalid_request without a refresh_token, and invalid_grant for an unknown one', async () => {
      const missing = await post('/v1/oauth/token', form({ grant_type: 'refresh_token' }));
      const unknown = await refreshAtToken('no-such-token');

      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({
        error: 'invalid_request',
        error_description: 'refresh_token is required for grant_type=refresh_token',
      });
      expect(unknown.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token is invalid',
      });
    });
  });

  describe('authorization server metadata (RFC 8414)', () => {
    const metadataAt = (url: string) =>
      service.app.inject({ method: 'GET', url, headers: { host: 'api.agency.test' } });

    it('serves the same document at /v1 and at the root path, without a token', async () => {
      const underV1 = await metadataAt('/v1/.well-known/oauth-authorization-server');
      const atRoot = await metadataAt('/.well-known/oauth-authorization-server');

      expect(underV1.statusCode).toBe(200);
      expect(atRoot.statusCode).toBe(200);
      expect(atRoot.json()).toEqual(underV1.json());
      // The authorization-code flow adds its own fields and values to these.
      expect(underV1.json()).toMatchObject({
        issuer: TEST_ISSUER,
        token_endpoint: 'http://api.agency.test/v1/oauth/token',
        jwks_uri: 'http://api.agency.test/v1/.well-known/jwks.json',
        revocation_endpoint: 'http://api.agency.test/v1/oauth/revoke',
        grant_types_supported: expect.arrayContaining(['client_credentials', 'refresh_token', 'password']),
        token_endpoint_auth_methods_supported: expect.arrayContaining([
          'client_secret_basic',
          'client_secret_post',
        ]),
        revocation_endpoint_auth_methods_supported: expect.arrayContaining([
          'client_secret_basic',
          'client_secret_post',
        ]),
        authorization_endpoint: 'http://api.agency.test/v1/oauth/authorize',
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        service_documentation: 'http://api.agency.test/docs',
      });
    });

    it('names the issuer setting as is while it is no URL, with endpoints at the origin asked, never cached', async () => {
      const response = await metadataAt('/.well-known/oauth-authorization-server');

      expect(response.json()).toMatchObject({ issuer: claimsOf((await clientToken(acme)).access_token).iss });
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('revocation (RFC 7009)', () => {
    const revoke = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      post('/v1/oauth/revoke', form(fields), headers);
    const status = (token: string) =>
      service.app.inject({
        method: 'GET',
        url: '/v1/oauth/token-status',
        headers: { authorization: `Bearer ${token}` },
      });
    const asAcme = () => ({ authorization: basic(acme.apiKey, acme.clientSecret) });

    it("ends a user's login by its refresh token, without client authentication; other logins go on", async () => {
      const login = await passwordToken(globex);
      const otherLogin = await passwordToken(globex);

      const answer = await revoke({ token: login.refresh_token, token_type_hint: 'refresh_token' });

      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe('');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect((await refresh(login.refresh_token)).json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token has been revoked',
      });
      expect((await getWith(login.access_token, '/v1/clients')).statusCode).toBe(401);
      expect((await status(otherLogin.access_token)).statusCode).toBe(204);
    });

    it('ends a login by one of its access tokens, whatever the hint says', async () => {
      const login = await passwordToken(globex);

      await revoke({ token: login.access_token, token_type_hint: 'refresh_token' });

      expect((await status(login.access_token)).statusCode).toBe(401);
      expect((await refresh(login.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('answers 200 for an unknown token, a token signed by another key and an expired access token, revoking nothing', async () => {
      const login = await passwordToken(globex);
      const sid = claimsOf(login.access_token).sid as string;
      const subject = `user:${globex.userId}`;

      const answers = await Promise.all(
        [
          'no-such-token',
          signTestToken({ keys: generateTestKeyPair(), subject, claims: { sid } }),
          signTestToken({ keys, subject, expiresIn: -60, claims: { sid } }),
          signTestToken({ keys, subject, audience: 'another-api', claims: { sid } }),
        ].map((token) => revoke({ token })),
      );

      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      expect((await status(login.access_token)).statusCode).toBe(204);
    });

    it("revokes a client's token only for that client, authenticated (either method)", async () => {
      const login = await clientToken(acme);

      const anonymous = await revoke({ token: login.refresh_token });
      const otherClient = await revoke(
        { token: login.refresh_token },
        { authorization: basic(globex.apiKey, globex.clientSecret) },
      );
      const stillLive = (await status(login.access_token)).statusCode;
      const owner = await revoke({
        token: login.refresh_token,
        client_id: acme.apiKey,
        client_secret: acme.clientSecret,
      });

      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'invalid_client' });
      expect(otherClient.statusCode).toBe(400);
      expect(otherClient.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'The token was issued to another client',
      });
      expect(stillLive).toBe(204);
      expect(owner.statusCode).toBe(200);
      expect((await status(login.access_token)).statusCode).toBe(401);
    });

    it('checks the credentials first, even for an unknown token, and needs the token', async () => {
      const wrongSecret = await revoke(
        { token: 'no-such-token' },
        { authorization: basic(acme.apiKey, 'wrong') },
      );
      const missing = await revoke({}, asAcme());

      expect(wrongSecret.statusCode).toBe(401);
      expect(wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ error: 'invalid_request', error_description: 'token is required' });
    });

    it('refuses every token of a revoked login, even one a revocation running during a rotation missed', async () => {
      const first = await clientToken(acme);
      const second = (await refresh(first.refresh_token, acme)).json<TokenResponse>();
      // What a revocation whose statement began before the rotation committed leaves behind.
      await dataSource.query('UPDATE refresh_tokens SET revoked_at = now() WHERE token_hash = $1', [
        createHash('sha256').update(first.refresh_token).digest('hex'),
      ]);

      const answer = await refresh(second.refresh_token, acme);

      expect(answer.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Refresh token has been revoked',
      });
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
  let acme: ProvisionedCompany;
  let globex: ProvisionedCompany;
  let initech: ProvisionedCompany;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiOwnerDataSourceOptions,
      env: {
        JWT_PRIVATE_KEY: keys.privatePem,
        TOKEN_RATE_LIMIT_PER_CLIENT: '5',
        TOKEN_RATE_LIMIT_PER_IP: '8',
        TOKEN_RATE_LIMIT_PER_ACCOUNT: '12',
      },
    });
    const dataSource = await new DataSource(mainApiOwnerDataSourceOptions(service.env)).initialize();
    const provisioning = new ProvisioningService(dataSource);
    acme = await provisioning.provision({
      companyName: 'Acme',
      email: 'ceo@acme.test',
      firstName: 'A',
      lastName: 'L',
    });
    globex = await provisioning.provision({
      companyName: 'Globex',
      email: 'ceo@globex.test',
      firstName: 'G',
      lastName: 'L',
    });
    initech = await provisioning.provision({
      companyName: 'Initech',
      email: 'ceo@initech.test',
      firstName: 'I',
      lastName: 'L',
    });
    await dataSource.destroy();
  });

  afterAll(() => service.close());

  const clientCredentials = (
    apiKey: string,
    secret: string,
    ip: string,
    headers: Record<string, string> = {},
  ) =>
    service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token?grant_type=client_credentials',
      headers: { authorization: basic(apiKey, secret), ...headers },
      remoteAddress: ip,
    });
  const passwordGrant = (
    username: string,
    password: string,
    ip: string,
    headers: Record<string, string> = {},
  ) =>
    service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      payload: form({ grant_type: 'password', username, password }),
      headers: { ...FORM, ...headers },
      remoteAddress: ip,
    });
  const statusesOf = async (count: number, request: (i: number) => Promise<{ statusCode: number }>) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      statuses.push((await request(i)).statusCode);
    }
    return statuses;
  };

  it('throttles a guesser of one API key with 429 and a short Retry-After, while the right secret still works', async () => {
    const statuses = await statusesOf(7, () => clientCredentials(acme.apiKey, 'guess', '10.0.1.1'));
    const blocked = await clientCredentials(acme.apiKey, 'guess', '10.0.1.1');
    const owner = await clientCredentials(acme.apiKey, acme.clientSecret, '10.0.1.1');

    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(8);
    expect(blocked.json()).toEqual({
      status: 429,
      name: 'PlatformCustomError',
      code: 'AC007',
      message: 'Too many failed sign-in attempts; retry later',
    });
    expect(owner.statusCode).toBe(200);
  });

  it('stops one IP trying many API keys', async () => {
    const statuses = await statusesOf(9, (i) => clientCredentials(`ak_spray_${i}`, 'guess', '10.9.9.9'));

    expect(statuses.slice(0, 8).every((status) => status === 401)).toBe(true);
    expect(statuses[8]).toBe(429);
  });

  it('ignores a spoofed X-Forwarded-For (TRUST_PROXY off): a new header per request does not reset the count', async () => {
    const statuses = await statusesOf(9, (i) =>
      clientCredentials(`ak_spoof_${i}`, 'guess', '10.7.7.7', { 'x-forwarded-for': `203.0.113.${i}` }),
    );

    expect(statuses[8]).toBe(429);
  });

  it("does not let one tenant's failing credentials block another tenant on the same address (integrations)", async () => {
    await statusesOf(12, () => clientCredentials(globex.apiKey, 'revoked-secret', '10.0.5.5'));

    const otherTenant = await clientCredentials(acme.apiKey, acme.clientSecret, '10.0.5.5');

    expect(otherTenant.statusCode).toBe(200);
  });

  it('counts failed refreshes at both refresh forms together, per IP', async () => {
    const refreshFrom = (i: number) =>
      service.app.inject({
        method: 'POST',
        url: i % 2 === 0 ? '/v1/oauth/refreshtoken' : '/v1/oauth/token',
        payload: form({ grant_type: 'refresh_token', refresh_token: `guess-${i}` }),
        headers: FORM,
        remoteAddress: '10.0.8.8',
      });

    const statuses = await statusesOf(9, refreshFrom);

    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 429]);
  });

  it('throttles a password guesser before checking, per account and address; the owner elsewhere still signs in', async () => {
    const statuses = await statusesOf(6, () => passwordGrant(acme.email, 'guess', '10.0.3.3'));
    const rightPasswordSameAddress = await passwordGrant(acme.email, acme.password, '10.0.3.3');
    const ownerElsewhere = await passwordGrant(acme.email, acme.password, '10.0.3.4');

    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(rightPasswordSameAddress.statusCode).toBe(429);
    expect(ownerElsewhere.statusCode).toBe(200);
  });

  it('keeps counting password failures whatever Basic header comes with them', async () => {
    const statuses = await statusesOf(6, (i) =>
      passwordGrant(globex.email, 'guess', '10.0.4.4', { authorization: basic(`junk_${i}`, 'x') }),
    );

    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('stops distributed guessing of one account at TOKEN_RATE_LIMIT_PER_ACCOUNT', async () => {
    const statuses = await statusesOf(13, (i) => passwordGrant('nobody@acme.test', 'guess', `10.1.0.${i}`));

    expect(statuses.slice(0, 12).every((status) => status === 400)).toBe(true);
    expect(statuses[12]).toBe(429);
  });

  it('backs off for a second after the first failure too many, so the owner gets in right after', async () => {
    const statuses = await statusesOf(6, () => passwordGrant(initech.email, 'guess', '10.0.6.6'));
    const blocked = await passwordGrant(initech.email, initech.password, '10.0.6.6');
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const afterBackOff = await passwordGrant(initech.email, initech.password, '10.0.6.6');

    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(afterBackOff.statusCode).toBe(200);
  });
});
