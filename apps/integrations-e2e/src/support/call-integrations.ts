import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { signTestToken, type TestKeyPair } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallAs {
  /** Company of the token (the suite's default otherwise). */
  company?: number;
  /** Role of the token; 1 (C-Level) by default. */
  role?: number;
}

const tokens = new Map<string, { token: string; reuseUntil: number }>();

/**
 * One token per signing key, company and role, reused for a few minutes as a real client reuses
 * its access token: the service confirms it with main-api once per 30 s (docs/decisions.md,
 * "Revocation"), not on every call, so a test that breaks main-api on purpose, or sends 50
 * requests at once, is not also refused for a token status main-api was too busy to confirm.
 */
function tokenFor(keys: TestKeyPair, companyId: number, roleId: number): string {
  const key = `${keys.kid}|${companyId}|${roleId}`;
  const known = tokens.get(key);
  if (known && known.reuseUntil > Date.now()) {
    return known.token;
  }
  const token = signTestToken({ keys, companyId, roleId });
  tokens.set(key, { token, reuseUntil: Date.now() + 300_000 });
  return token;
}

/** A request to `/v2/integrations<url>` of `app` with a token signed by main-api's test keys. */
export function callIntegrations(
  app: NestFastifyApplication,
  keys: TestKeyPair,
  defaultCompany: number,
  method: Method,
  url: string,
  body?: object,
  options: CallAs = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/v2/integrations${url}`,
    headers: {
      authorization: `Bearer ${tokenFor(keys, options.company ?? defaultCompany, options.role ?? 1)}`,
    },
    ...(body ? { payload: body } : {}),
  });
}
