import { createServer } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { ProvisioningService, type ProvisionedCompany } from '../src/provisioning/provisioning.service';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

// STYLE §13: what standard OAuth clients rely on is proven with those clients, over real HTTP.
// openid-client v6 (with oauth4webapi) speaks for the OAuth libraries, jose for resource servers.

/** A port nobody listens on now: the issuer URL has to be known before main-api starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('main-api OAuth with openid-client and jose (e2e)', () => {
  let app: MainApiTestApp;
  let issuer: string;
  let acme: ProvisionedCompany;
  let globex: ProvisionedCompany;

  beforeAll(async () => {
    const port = await freePort();
    // RFC 8414: the issuer is the URL the metadata is found from, and the `iss` of the tokens.
    issuer = `http://127.0.0.1:${port}`;
    app = await startMainApiTestApp(['Acme', 'Globex'], { JWT_ISSUER: issuer });
    [acme, globex] = app.companies;
    await app.listen(port);
  });

  afterAll(() => app.close());

  // Plain http is fine here only: openid-client refuses it unless told so.
  const discover = (
    company: ProvisionedCompany,
    authentication: (secret: string) => client.ClientAuth,
    server = new URL(issuer),
  ) =>
    client.discovery(server, company.apiKey, undefined, authentication(company.clientSecret), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
  const getWith = (accessToken: string, path: string) =>
    fetch(`${issuer}/v1${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  describe('discovery (RFC 8414)', () => {
    it('finds main-api from its issuer URL, with the token, JWKS and revocation endpoints', async () => {
      const config = await discover(acme, client.ClientSecretBasic);

      expect(config.serverMetadata()).toMatchObject({
        issuer,
        token_endpoint: `${issuer}/v1/oauth/token`,
        jwks_uri: `${issuer}/v1/.well-known/jwks.json`,
        revocation_endpoint: `${issuer}/v1/oauth/revoke`,
        grant_types_supported: expect.arrayContaining(['client_credentials', 'refresh_token']),
        token_endpoint_auth_methods_supported: expect.arrayContaining([
          'client_secret_basic',
          'client_secret_post',
        ]),
      });
    });

    it('lets the document be cached for a while: it depends on the issuer setting only', async () => {
      const response = await fetch(`${issuer}/.well-known/oauth-authorization-server`);

      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('serves the same document under /v1, for clients configured with the base URL', async () => {
      const fromRoot = await discover(acme, client.ClientSecretBasic);
      const fromV1 = await discover(
        acme,
        client.ClientSecretBasic,
        new URL(`${issuer}/v1/.well-known/oauth-authorization-server`),
      );

      expect(fromV1.serverMetadata()).toEqual(fromRoot.serverMetadata());
    });
  });

  describe('client credentials', () => {
    it.each([
      [
        'ClientSecretBasic (id and secret form-encoded before base64, RFC 6749 §2.3.1)',
        client.ClientSecretBasic,
      ],
      ['ClientSecretPost (client_id and client_secret in the form)', client.ClientSecretPost],
    ])('issues tokens that main-api accepts, with %s', async (_method, authentication) => {
      const config = await discover(acme, authentication);

      const tokens = await client.clientCredentialsGrant(config);

      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect((await getWith(tokens.access_token, '/clients')).status).toBe(200);
    });

    it('refuses a wrong secret with 401 invalid_client and a Basic challenge, whichever way it is sent', async () => {
      for (const authentication of [client.ClientSecretBasic, client.ClientSecretPost]) {
        const config = await discover({ ...acme, clientSecret: 'not-the-secret' }, authentication);

        const refusal = await refusalOf(client.clientCredentialsGrant(config));

        // openid-client reports the WWW-Authenticate challenge RFC 6749 §5.2 asks for before the body.
        expect(refusal).toBeInstanceOf(client.WWWAuthenticateChallengeError);
        const { cause, response } = refusal as client.WWWAuthenticateChallengeError;
        expect(cause.map((challenge) => challenge.scheme)).toEqual(['basic']);
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ error: 'invalid_client' });
      }
    });
  });

  describe('refresh (grant_type=refresh_token, RFC 6749 §6)', () => {
    it.each([
      ['ClientSecretBasic', client.ClientSecretBasic],
      ['ClientSecretPost', client.ClientSecretPost],
    ])(
      'rotates the refresh token, authenticated with %s, and refuses the spent one',
      async (_method, authentication) => {
        const config = await discover(acme, authentication);
        const first = await client.clientCredentialsGrant(config);

        const second = await client.refreshTokenGrant(config, first.refresh_token as string);

        expect(second.refresh_token).toEqual(expect.any(String));
        expect(second.refresh_token).not.toBe(first.refresh_token);
        expect((await getWith(second.access_token, '/clients')).status).toBe(200);
        // A replay ends the login (reuse detection), the rotated token with it.
        const replay = await refusalOf(client.refreshTokenGrant(config, first.refresh_token as string));
        expect(replay).toMatchObject({ error: 'invalid_grant', status: 400 });
        expect(
          await refusalOf(client.refreshTokenGrant(config, second.refresh_token as string)),
        ).toMatchObject({
          error: 'invalid_grant',
        });
      },
    );

    it("keeps a client's refresh token to that client", async () => {
      const { refresh_token } = await client.clientCredentialsGrant(
        await discover(acme, client.ClientSecretPost),
      );

      const refusal = await refusalOf(
        client.refreshTokenGrant(await discover(globex, client.ClientSecretPost), refresh_token as string),
      );

      expect(refusal).toMatchObject({ error: 'invalid_grant', status: 400 });
      expect(
        (
          await client.refreshTokenGrant(
            await discover(acme, client.ClientSecretBasic),
            refresh_token as string,
          )
        ).access_token,
      ).toEqual(expect.any(String));
    });
  });

  describe('access tokens checked by a resource server with jose', () => {
    it('verifies against the JWKS of the metadata, with the metadata issuer and the audience', async () => {
      const config = await discover(acme, client.ClientSecretBasic);
      const { access_token } = await client.clientCredentialsGrant(config);
      const metadata = config.serverMetadata();

      const { payload, protectedHeader } = await jwtVerify(
        access_token,
        createRemoteJWKSet(new URL(metadata.jwks_uri as string)),
        { issuer: metadata.issuer, audience: 'agency-platform-api', typ: 'at+jwt', algorithms: ['RS256'] },
      );

      expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
      expect(payload).toMatchObject({ iss: issuer, sub: expect.stringMatching(/^client:\d+$/) });
      expect(payload.company_id).toBe(acme.companyId);
    });
  });

  describe('revocation (RFC 7009)', () => {
    const tokenStatus = (accessToken: string) => getWith(accessToken, '/oauth/token-status');

    it('ends the login of a revoked refresh token: its refresh token and its access tokens are refused', async () => {
      const config = await discover(acme, client.ClientSecretBasic);
      const login = await client.clientCredentialsGrant(config);
      const used = await client.refreshTokenGrant(config, login.refresh_token as string);
      const unused = await client.refreshTokenGrant(config, used.refresh_token as string);
      expect((await getWith(used.access_token, '/clients')).status).toBe(200);

      await client.tokenRevocation(config, unused.refresh_token as string, {
        token_type_hint: 'refresh_token',
      });

      // A token main-api has not verified yet is refused at once...
      expect((await getWith(unused.access_token, '/clients')).status).toBe(401);
      // ...one it verified before, at once where the others ask (token-status)...
      expect((await tokenStatus(used.access_token)).status).toBe(401);
      // ...and everywhere once its verification (kept up to 30 s) is asked again.
      jest.useFakeTimers({
        doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
      });
      try {
        jest.setSystemTime(Date.now() + 31_000);
        expect((await getWith(used.access_token, '/clients')).status).toBe(401);
      } finally {
        jest.useRealTimers();
      }
      expect(await refusalOf(client.refreshTokenGrant(config, unused.refresh_token as string))).toMatchObject(
        { error: 'invalid_grant', error_description: 'Refresh token has been revoked' },
      );
    });

    it('revokes by access token too, authenticated with ClientSecretPost', async () => {
      const config = await discover(acme, client.ClientSecretPost);
      const login = await client.clientCredentialsGrant(config);

      await client.tokenRevocation(config, login.access_token, { token_type_hint: 'access_token' });

      expect((await tokenStatus(login.access_token)).status).toBe(401);
      expect(await refusalOf(client.refreshTokenGrant(config, login.refresh_token as string))).toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('answers an unknown token as revoked, and refuses to revoke another client’s token', async () => {
      const acmeLogin = await client.clientCredentialsGrant(await discover(acme, client.ClientSecretBasic));
      const globexConfig = await discover(globex, client.ClientSecretBasic);

      await expect(client.tokenRevocation(globexConfig, 'no-such-token')).resolves.toBeUndefined();
      const refusal = await refusalOf(
        client.tokenRevocation(globexConfig, acmeLogin.refresh_token as string),
      );

      expect(refusal).toMatchObject({ error: 'invalid_grant', status: 400 });
      expect((await tokenStatus(acmeLogin.access_token)).status).toBe(204);
    });
  });

  describe('authorization code with PKCE: a browser app (public client)', () => {
    const REDIRECT_URI = 'http://localhost:5173/callback';
    const tokenStatus = (accessToken: string) => getWith(accessToken, '/oauth/token-status');

    /** What a browser does at the sign-in page: read the form, send it back with the cookie it got. */
    async function signInAt(authorizationUrl: URL, email: string, password: string): Promise<URL> {
      const page = await fetch(authorizationUrl);
      expect(page.status).toBe(200);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
      const fields = new URLSearchParams({ email, password });
      for (const match of (await page.text()).matchAll(
        /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
      )) {
        fields.set(
          match[1],
          match[2].replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
        );
      }
      const answer = await fetch(`${issuer}/v1/oauth/authorize`, {
        method: 'POST',
        body: fields,
        headers: { cookie },
        redirect: 'manual',
      });
      expect(answer.status).toBe(302);
      return new URL(answer.headers.get('location') as string);
    }

    it('signs in at the page openid-client sends the browser to, exchanges the code, refreshes and logs out', async () => {
      const webApp = await new ProvisioningService(app.dataSource).addApp({
        companyId: acme.companyId,
        name: 'Web app',
        redirectUris: [REDIRECT_URI],
      });
      const config = await client.discovery(new URL(issuer), webApp.clientId, undefined, client.None(), {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      });
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();

      const callback = await signInAt(
        client.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT_URI,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        }),
        acme.email,
        acme.password,
      );
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });

      expect((await getWith(tokens.access_token, '/projects')).status).toBe(200);
      const { payload } = await jwtVerify(
        tokens.access_token,
        createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri as string)),
        { issuer, audience: 'agency-platform-api', typ: 'at+jwt' },
      );
      expect(payload).toMatchObject({ company_id: acme.companyId });
      const next = await client.refreshTokenGrant(config, tokens.refresh_token as string);
      expect(next.refresh_token).not.toBe(tokens.refresh_token);

      await client.tokenRevocation(config, next.refresh_token as string);

      expect(await refusalOf(client.refreshTokenGrant(config, next.refresh_token as string))).toMatchObject({
        error: 'invalid_grant',
      });
      expect((await tokenStatus(next.access_token)).status).toBe(401);
    });

    it('is refused by openid-client when the callback carries another state', async () => {
      const webApp = await new ProvisioningService(app.dataSource).addApp({
        companyId: acme.companyId,
        name: 'Other web app',
        redirectUris: [REDIRECT_URI],
      });
      const config = await client.discovery(new URL(issuer), webApp.clientId, undefined, client.None(), {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      });
      const verifier = client.randomPKCECodeVerifier();
      const callback = await signInAt(
        client.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT_URI,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: 'the-state-sent',
        }),
        acme.email,
        acme.password,
      );

      const refusal = await refusalOf(
        client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: verifier,
          expectedState: 'another',
        }),
      );

      // Checked on the callback, before the code is sent anywhere.
      expect(refusal).toMatchObject({ message: 'invalid response encountered', cause: expect.anything() });
      expect(String((refusal as { cause?: { message?: unknown } }).cause?.message)).toMatch(/state/);
    });
  });
});
