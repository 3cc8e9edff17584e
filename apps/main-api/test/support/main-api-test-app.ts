import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import {
  generateTestKeyPair,
  signTestToken,
  startTestService,
  TEST_CHANGE_ORIGIN_KEY,
  type TestKeyPair,
  type TestService,
  type TestServiceOptions,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { MainApiEnv } from '../../src/config/main-api.env';
import { mainApiOwnerDataSourceOptions } from '../../src/database/main-api.data-source';
import { mainApiService } from '../../src/main-api.service';
import { ProvisioningService, type ProvisionedCompany } from '../../src/provisioning/provisioning.service';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** Company of the token; the first provisioned company by default. */
  company?: number;
  /** Role of the token; 1 (C-Level) by default. */
  role?: number;
  /** `sub` of the token; `user:1` by default. */
  subject?: string;
  headers?: Record<string, string>;
}

export interface MainApiTestApp {
  service: TestService<MainApiEnv>;
  keys: TestKeyPair;
  /** Provisioned companies, in the order their names were given. */
  companies: ProvisionedCompany[];
  /** A request to `/v1<url>` with a token signed for the given company and role. */
  call(method: Method, url: string, body?: object, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A DataSource on the test database, for arranging and checking rows directly. */
  dataSource: DataSource;
  /**
   * Serves over real HTTP on 127.0.0.1 (for planner and integrations tests, and OAuth libraries), on
   * `port` or any free one; answers the base URL.
   */
  listen(port?: number): Promise<string>;
  close(): Promise<void>;
}

/** main-api on its own migrated database with signing keys and provisioned companies. */
export async function startMainApiTestApp(
  companyNames: string[],
  env: Record<string, string> = {},
  connection?: TestServiceOptions<MainApiEnv>['connection'],
): Promise<MainApiTestApp> {
  const keys = generateTestKeyPair();
  const service = await startTestService({
    definition: mainApiService,
    envClass: MainApiEnv,
    dataSourceOptions: mainApiOwnerDataSourceOptions,
    env: { JWT_PRIVATE_KEY: keys.privatePem, CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY, ...env },
    connection,
  });
  const dataSource = await new DataSource(mainApiOwnerDataSourceOptions(service.env)).initialize();
  const provisioning = new ProvisioningService(dataSource);
  const companies: ProvisionedCompany[] = [];
  for (const name of companyNames) {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    companies.push(
      await provisioning.provision({
        companyName: name,
        email: `boss@${slug}.test`,
        firstName: name,
        lastName: 'Boss',
      }),
    );
  }
  return {
    service,
    keys,
    companies,
    dataSource,
    call: (method, url, body, options = {}) =>
      service.app.inject({
        method,
        url: `/v1${url}`,
        headers: {
          authorization: `Bearer ${signTestToken({
            keys,
            companyId: options.company ?? companies[0]?.companyId ?? 1,
            roleId: options.role ?? 1,
            subject: options.subject ?? 'user:1',
          })}`,
          ...options.headers,
        },
        ...(body ? { payload: body } : {}),
      }),
    async listen(port = 0) {
      await service.app.listen({ port, host: '127.0.0.1' });
      return `http://127.0.0.1:${(service.app.getHttpServer().address() as AddressInfo).port}`;
    },
    async close() {
      await dataSource.destroy();
      await service.close();
    },
  };
}

/** The field names a 400 validation body names. */
export function fieldsOf(response: LightMyRequestResponse): string[] {
  return response.json<{ errors?: { field: string }[] }>().errors?.map((error) => error.field) ?? [];
}
