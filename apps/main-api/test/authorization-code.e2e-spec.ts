import { createHash, randomBytes } from 'node:crypto';
import { TEST_ISSUER } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { ProvisioningService, type ProvisionedCompany } from '../src/provisioning/provisioning.service';
import type { RegisteredApp } from '../src/oauth/authorization/oauth-apps.repository';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

const REDIRECT_URI = 'http://localhost:5173/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The hidden and visible inputs of the page's form, as a browser would submit them. */
function formFieldsOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]] = match[2].replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  }
  return fields;
}

function withLastCharacterChanged(value: string): string {
  return value.slice(0, -1) + (value.endsWith('A') ? 'B' : 'A');
}

function setCookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0];
}

describe('authorization code with PKCE (e2e)', () => {
  let app: MainApiTestApp;
  let acme: ProvisionedCompany;
  let webApp: RegisteredApp;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Acme', 'Globex'], { TOKEN_RATE_LIMIT_PER_CLIENT: '3' });
    acme = app.companies[0];
    webApp = await new ProvisioningService(app.dataSource).addApp({
      companyId: acme.companyId,
      name: 'Acme <Web>',
      redirectUris: [REDIRECT_URI],
    });
  });

  afterAll(async () => {
    await app.close();
  });

  const authorizeQuery = (
    overrides: Record<string, string | undefined> = {},
    challenge = pkce().challenge,
  ) => {
    const parameters: Record<string, string> = {};
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: webApp.clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'xyz-state',
      ...overrides,
    })) {
      if (value !== undefined) {
        parameters[name] = value;
      }
    }
    return new URLSearchParams(parameters).toString();
  };
  const getPage = (query: string, remoteAddress = '10.0.0.1') =>
    app.service.app.inject({ method: 'GET', url: `/v1/oauth/authorize?${query}`, remoteAddress });
  const postForm = (fields: Record<string, string>, cookie: string | undefined, remoteAddress = '10.0.0.1') =>
    app.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: form(fields),
      headers: { ...FORM, ...(cookie ? { cookie } : {}) },
      remoteAddress,
    });
  const token = (fields: Record<string, string>) =>
    app.service.app.inject({ method: 'POST', url: '/v1/oauth/token', payload: form(fields), headers: FORM });

  /** GET the page, submit it with these credentials: the answer of the POST. */
  async function signIn(
    credentials: { email: string; password: string },
    options: { challenge?: string; state?: string; remoteAddress?: string; clientId?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const page = await getPage(
      authorizeQuery(
        { state: options.state ?? 'xyz-state', ...(options.clientId && { client_id: options.clientId }) },
        options.challenge,
      ),
      options.remoteAddress,
    );
    expect(page.statusCode).toBe(200);
    return postForm({ ...formFieldsOf(page.body), ...credentials }, setCookieOf(page), options.remoteAddress);
  }

  async function codeFor(challenge: string): Promise<string> {
    const answer = await signIn({ email: acme.email, password: acme.password }, { challenge });
    expect(answer.statusCode).toBe(302);
    return new URL(answer.headers.location as string).searchParams.get('code') ?? '';
  }

  const exchange = (code: string, verifier: string, overrides: Record<string, string> = {}) =>
    token({
      grant_type: 'authorization_code',
      code,
      client_id: webApp.clientId,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...overrides,
    });

  it('signs in through the page, exchanges the code with its verifier, calls the API and refreshes', async () => {
    const { verifier, challenge } = pkce();
    const page = await getPage(authorizeQuery({}, challenge));

    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://localhost:5173");
    expect(csp).not.toContain('script-src');
    expect(page.body).toContain('<html lang="en">');
    expect(page.body.match(/<h1>/g)).toHaveLength(1);
    expect(page.body).toContain('<label for="email">E-mail</label>');
    expect(page.body).toContain('<label for="password">Password</label>');
    expect(page.body).not.toMatch(/<script|src=|href=/);
    expect(setCookieOf(page)).toMatch(/^oauth_authorize_csrf=[\w-]{43}$/);
    expect(String(page.headers['set-cookie'])).toContain('HttpOnly; SameSite=Strict');

    const answer = await postForm(
      { ...formFieldsOf(page.body), email: acme.email, password: acme.password },
      setCookieOf(page),
    );
    expect(answer.statusCode).toBe(302);
    const location = new URL(answer.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('xyz-state');
    // RFC 9207: the app can tell which authorization server answered (JWT_ISSUER).
    expect(location.searchParams.get('iss')).toBe(TEST_ISSUER);
    const code = location.searchParams.get('code') ?? '';
    expect(Buffer.from(code, 'base64url')).toHaveLength(32);

    const issued = await exchange(code, verifier);
    expect(issued.statusCode).toBe(200);
    const tokens = issued.json<TokenResponse>();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const projects = await app.service.app.inject({
      method: 'GET',
      url: '/v1/projects',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(projects.statusCode).toBe(200);

    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: webApp.clientId,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json<TokenResponse>().refresh_token).not.toBe(tokens.refresh_token);
    // Rotation as today: the spent token is refused, and its reuse ends the login.
    const replayed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: webApp.clientId,
    });
    expect(replayed.json()).toMatchObject({ error: 'invalid_grant' });
    const afterReuse = await token({
      grant_type: 'refresh_token',
      refresh_token: refreshed.json<TokenResponse>().refresh_token,
      client_id: webApp.clientId,
    });
    expect(afterReuse.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it("refreshes a public client's login only with its client_id", async () => {
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(await codeFor(challenge), verifier)).json<TokenResponse>();

    const withoutClient = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(withoutClient.statusCode).toBe(400);
    const otherClient = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: 'app_000000000000000000000000',
    });
    expect(otherClient.statusCode).toBe(400);
    const documented = await app.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/refreshtoken',
      payload: form({ refresh_token: tokens.refresh_token, client_id: webApp.clientId }),
      headers: FORM,
    });
    expect(documented.statusCode).toBe(200);
  });

  it("refreshes a browser login at /oauth/refreshtoken with the refresh_token alone; a client_id given must be the app's", async () => {
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(await codeFor(challenge), verifier)).json<TokenResponse>();
    const refreshAt = (fields: Record<string, string>) =>
      app.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/refreshtoken',
        payload: form(fields),
        headers: FORM,
      });

    const otherClient = await refreshAt({
      refresh_token: tokens.refresh_token,
      client_id: 'app_000000000000000000000000',
    });
    const alone = await refreshAt({ refresh_token: tokens.refresh_token });

    expect(otherClient.statusCode).toBe(400);
    expect(otherClient.json()).toMatchObject({ error: 'invalid_grant' });
    expect(alone.statusCode).toBe(200);
    const claims = JSON.parse(
      Buffer.from(alone.json<TokenResponse>().access_token.split('.')[1], 'base64url').toString('utf8'),
    ) as Record<string, unknown>;
    expect(claims.client_id).toBe(webApp.clientId);
  });

  it("ends an app's logins when it is revoked: access tokens at once, refreshes with the reason", async () => {
    const revocable = await new ProvisioningService(app.dataSource).addApp({
      companyId: acme.companyId,
      name: 'Acme campaign site',
      redirectUris: [REDIRECT_URI],
    });
    const { verifier, challenge } = pkce();
    const signedIn = await signIn(
      { email: acme.email, password: acme.password },
      { challenge, clientId: revocable.clientId },
    );
    const code = new URL(signedIn.headers.location as string).searchParams.get('code') ?? '';
    const tokens = (await exchange(code, verifier, { client_id: revocable.clientId })).json<TokenResponse>();

    const revoked = await new ProvisioningService(app.dataSource).revokeApp({
      companyId: acme.companyId,
      clientId: revocable.clientId,
    });

    expect(revoked.revokedAt).toBeInstanceOf(Date);
    const projects = await app.service.app.inject({
      method: 'GET',
      url: '/v1/projects',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(projects.statusCode).toBe(401);
    const status = await app.service.app.inject({
      method: 'GET',
      url: '/v1/oauth/token-status',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(status.statusCode).toBe(401);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: revocable.clientId,
    });
    expect(refreshed.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The app this login was started with has been revoked',
    });
    await expect(
      new ProvisioningService(app.dataSource).revokeApp({
        companyId: acme.companyId,
        clientId: 'app_unknown',
      }),
    ).rejects.toThrow('has no app with client_id app_unknown');
  });

  it('refuses a wrong code_verifier, and the code is spent', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);

    const wrong = await exchange(code, pkce().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange(code, verifier)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a verifier of the wrong length, another redirect_uri and an unknown client', async () => {
    const { verifier, challenge } = pkce();
    expect((await exchange(await codeFor(challenge), 'short')).json()).toMatchObject({
      error: 'invalid_grant',
    });
    expect(
      (
        await exchange(await codeFor(challenge), verifier, { redirect_uri: 'http://localhost:5173/other' })
      ).json(),
    ).toMatchObject({ error: 'invalid_grant' });
    const unknown = await exchange(await codeFor(challenge), verifier, { client_id: 'app_unknown' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a code used twice and revokes the tokens its first use issued', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const first = (await exchange(code, verifier)).json<TokenResponse>();

    const second = await exchange(code, verifier);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ error: 'invalid_grant' });
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: webApp.clientId,
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const projects = await app.service.app.inject({
      method: 'GET',
      url: '/v1/projects',
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(projects.statusCode).toBe(401);
  });

  it('revokes what a code issued when it is replayed during its first exchange (RFC 9700 §4.4)', async () => {
    // Ten codes, each exchanged twice at the same moment: one exchange issues, the other is the
    // replay, and whichever comes second must end the login the first started.
    for (let round = 0; round < 10; round += 1) {
      const { verifier, challenge } = pkce();
      const code = await codeFor(challenge);
      const answers = await Promise.all([exchange(code, verifier), exchange(code, verifier)]);

      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      const issued = answers.find((answer) => answer.statusCode === 200)?.json<TokenResponse>();
      const projects = await app.service.app.inject({
        method: 'GET',
        url: '/v1/projects',
        headers: { authorization: `Bearer ${issued?.access_token}` },
      });
      expect(projects.statusCode).toBe(401);
      const refreshed = await token({
        grant_type: 'refresh_token',
        refresh_token: issued?.refresh_token ?? '',
        client_id: webApp.clientId,
      });
      expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
      // Each replay counts as a failed token request of this address: not what this test is about.
      await app.dataSource.query('DELETE FROM rate_limit_buckets');
    }
  });

  it('refuses an expired code', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    await app.dataSource.query(
      `UPDATE authorization_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`,
      [createHash('sha256').update(code).digest('hex')],
    );

    const answer = await exchange(code, verifier);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });

  it('never redirects to an unregistered redirect_uri or for an unknown client', async () => {
    for (const query of [
      authorizeQuery({ redirect_uri: 'https://evil.example/callback' }),
      authorizeQuery({ redirect_uri: `${REDIRECT_URI}/x` }),
      authorizeQuery({ redirect_uri: undefined }),
      authorizeQuery({ client_id: 'app_unknown' }),
      authorizeQuery({ client_id: undefined }),
    ]) {
      const page = await getPage(query);
      expect(page.statusCode).toBe(400);
      expect(page.headers.location).toBeUndefined();
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('role="alert"');
      expect(page.body).not.toContain('evil.example');
    }
  });

  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a malformed challenge', { code_challenge: 'abc' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
  ])('redirects %s back to the app with error and state', async (_name, overrides, error) => {
    const page = await getPage(authorizeQuery(overrides));

    expect(page.statusCode).toBe(302);
    const location = new URL(page.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('xyz-state');
    // RFC 9207: the app can tell which authorization server answered (JWT_ISSUER).
    expect(location.searchParams.get('iss')).toBe(TEST_ISSUER);
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses a POST without the CSRF cookie, with a wrong token, or bound to another request', async () => {
    const page = await getPage(authorizeQuery());
    const fields: Record<string, string> = {
      ...formFieldsOf(page.body),
      email: acme.email,
      password: acme.password,
    };
    const cookie = setCookieOf(page);

    const attempts = [
      await postForm(fields, undefined),
      await postForm({ ...fields, csrf_token: '' }, cookie),
      await postForm(
        {
          ...fields,
          csrf_token: withLastCharacterChanged(fields.csrf_token),
        },
        cookie,
      ),
      await postForm(fields, `oauth_authorize_csrf=${randomBytes(32).toString('base64url')}`),
      await postForm({ ...fields, state: 'another-state' }, cookie),
    ];
    for (const answer of attempts) {
      expect(answer.statusCode).toBe(403);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).toMatch(/<p role="alert"[^>]*>This form has expired/);
    }
  });

  it('shows "E-mail or password is wrong" with 401, the same for an unknown e-mail', async () => {
    const wrongPassword = await signIn(
      { email: acme.email, password: 'not-the-password' },
      { remoteAddress: '10.0.0.2' },
    );
    const unknownUser = await signIn(
      { email: 'nobody@acme.test', password: 'not-the-password' },
      { remoteAddress: '10.0.0.2' },
    );
    const otherCompany = await signIn(
      { email: app.companies[1].email, password: app.companies[1].password },
      { remoteAddress: '10.0.0.2' },
    );

    for (const answer of [wrongPassword, unknownUser, otherCompany]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.body).toMatch(/<p role="alert" id="form-error">E-mail or password is wrong\.<\/p>/);
      // The form comes back ready to retry: the e-mail kept, a CSRF token, no password.
      expect(formFieldsOf(answer.body).csrf_token).toBeTruthy();
      expect(answer.body).not.toContain('not-the-password');
    }
    expect(wrongPassword.body).toContain(`value="${acme.email}"`);
  });

  it('answers the page with 429 and Retry-After once an account is throttled', async () => {
    const remoteAddress = '10.0.0.3';
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let attempt = 0; attempt < 5 && last?.statusCode !== 429; attempt += 1) {
      last = await signIn({ email: acme.email, password: 'wrong-password' }, { remoteAddress });
      statuses.push(last.statusCode);
    }

    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last?.headers['retry-after']).toMatch(/^\d+$/);
    expect(last?.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(last?.body).toMatch(/<p role="alert" id="form-error">Too many failed sign-in attempts/);
    // Even the right password waits while the account is backing off from this address.
    const right = await signIn({ email: acme.email, password: acme.password }, { remoteAddress });
    expect(right.statusCode).toBe(429);
  });

  it('escapes every reflected value', async () => {
    const state = '"><script>alert(1)</script>';
    const page = await getPage(authorizeQuery({ state }));

    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page.body).toContain('Sign in to Acme &#60;Web&#62;');
    const answer = await postForm(
      { ...formFieldsOf(page.body), email: '"><img src=x>@acme.test', password: 'x' },
      setCookieOf(page),
    );
    expect(answer.statusCode).toBe(401);
    expect(answer.body).not.toContain('<img');
    // The state survives the form unchanged.
    expect(formFieldsOf(answer.body).state).toBe(state);
  });
});
