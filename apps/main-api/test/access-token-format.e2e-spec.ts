import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

const basic = (apiKey: string, secret: string) =>
  `Basic ${Buffer.from(`${apiKey}:${secret}`).toString('base64')}`;

/** What the issued tokens and the published keys tell their verifiers (the planner, integrations). */
describe('main-api access tokens and JWKS, as verifiers see them (e2e)', () => {
  let main: MainApiTestApp;

  beforeAll(async () => {
    main = await startMainApiTestApp(['Acme']);
  });

  afterAll(() => main.close());

  it('types its access tokens at+jwt (RFC 9068), and accepts them back', async () => {
    const [acme] = main.companies;
    const issued = await main.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token?grant_type=client_credentials',
      headers: { authorization: basic(acme.apiKey, acme.clientSecret) },
    });
    const { access_token } = issued.json<{ access_token: string }>();
    const header = JSON.parse(
      Buffer.from(access_token.split('.')[0], 'base64url').toString('utf8'),
    ) as object;

    expect(header).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: main.keys.kid });
    const answer = await main.service.app.inject({
      method: 'GET',
      url: '/v1/clients',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(answer.statusCode).toBe(200);
  });

  it("carries RFC 9068's required claims, client_id naming the client of every grant", async () => {
    const [acme] = main.companies;
    const claimsOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const byClient = (
      await main.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/token?grant_type=client_credentials',
        headers: { authorization: basic(acme.apiKey, acme.clientSecret) },
      })
    ).json<{ access_token: string; refresh_token: string }>();
    const byPassword = (
      await main.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: form,
        payload: new URLSearchParams({
          grant_type: 'password',
          username: acme.email,
          password: acme.password,
        }).toString(),
      })
    ).json<{ access_token: string }>();
    const refreshed = (
      await main.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/refreshtoken',
        headers: form,
        payload: new URLSearchParams({ refresh_token: byClient.refresh_token }).toString(),
      })
    ).json<{ access_token: string }>();

    for (const [token, clientId] of [
      [byClient.access_token, acme.apiKey],
      [byPassword.access_token, 'password-grant'],
      [refreshed.access_token, acme.apiKey],
    ]) {
      const claims = claimsOf(token);
      expect(claims).toMatchObject({ client_id: clientId });
      for (const required of ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti']) {
        expect(claims).toHaveProperty(required);
      }
    }
  });

  it('lets the JWKS be cached for 30 s at most, so a withdrawn key is dropped within a minute', async () => {
    const response = await main.service.app.inject({ method: 'GET', url: '/v1/.well-known/jwks.json' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=30');
  });
});
