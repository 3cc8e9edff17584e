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
      authorization: `Bearer ${signTestToken({
        keys,
        companyId: options.company ?? defaultCompany,
        roleId: options.role ?? 1,
      })}`,
    },
    ...(body ? { payload: body } : {}),
  });
}
