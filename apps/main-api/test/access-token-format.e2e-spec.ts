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

  it('lets the JWKS be cached for 30 s at most, so a withdrawn key is dropped within a minute', async () => {
    const response = await main.service.app.inject({ method: 'GET', url: '/v1/.well-known/jwks.json' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=30');
  });
});
