import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FORGED_TOKENS, signTestToken, type TestKeyPair } from './test-tokens';

export interface BearerExpectations {
  getApp(): NestFastifyApplication;
  getKeys(): TestKeyPair;
  /** A protected GET route of the service. */
  url: string;
  /** The service's 401 body for a given message matcher. */
  unauthorizedBody(message: unknown): object;
}

/** Every way a bearer token can be wrong answers 401 in the service's own body (issue 3 list). */
export function itRejectsBadBearerTokens(expectations: BearerExpectations): void {
  const call = (authorization?: string) =>
    expectations
      .getApp()
      .inject({ method: 'GET', url: expectations.url, headers: authorization ? { authorization } : {} });

  it('accepts a valid token (so the refusals below mean something)', async () => {
    const response = await call(`Bearer ${signTestToken({ keys: expectations.getKeys() })}`);

    expect(response.statusCode).toBe(200);
  });

  it.each(['AT+JWT', 'application/at+jwt'])('accepts the access-token typ written as %s', async (typ) => {
    const response = await call(`Bearer ${signTestToken({ keys: expectations.getKeys(), header: { typ } })}`);

    expect(response.statusCode).toBe(200);
  });

  it('refuses a request without a token', async () => {
    const response = await call();

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(
      expectations.unauthorizedBody(expect.stringContaining('Missing bearer token')),
    );
  });

  it('refuses a token sent with another scheme', async () => {
    const response = await call(`Basic ${signTestToken({ keys: expectations.getKeys() })}`);

    expect(response.statusCode).toBe(401);
  });

  it('says when a token has expired', async () => {
    const response = await call(`Bearer ${signTestToken({ keys: expectations.getKeys(), expiresIn: -120 })}`);

    expect(response.json()).toEqual(expectations.unauthorizedBody('Access token has expired'));
  });

  it('tolerates a little clock skew', async () => {
    const response = await call(`Bearer ${signTestToken({ keys: expectations.getKeys(), expiresIn: -5 })}`);

    expect(response.statusCode).toBe(200);
  });

  it.each(Object.keys(FORGED_TOKENS))('refuses a forged token: %s', async (name) => {
    const token = FORGED_TOKENS[name](expectations.getKeys());

    const response = await call(`Bearer ${token}`);

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(expectations.unauthorizedBody(expect.any(String)));
  });
}
