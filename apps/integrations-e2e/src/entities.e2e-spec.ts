import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { signTestToken, startTestService, TEST_CHANGE_ORIGIN_KEY, type TestService } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
// The issue asks for a real main-api behind these tests: they start main-api in process through
// main-api's own test harness. They live in integrations-e2e, the one project allowed to depend on
// both apps, so the integrations app itself never depends on main-api.
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { ProvisioningService } from '../../main-api/src/provisioning/provisioning.service';
import { IntegrationsEnv } from '../../integrations/src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../../integrations/src/database/integrations.data-source';
import { integrationsService } from '../../integrations/src/integrations.service';
import { callIntegrations, type CallAs, type Method } from './support/call-integrations';
import { MainApiProxy } from './support/main-api-proxy';

type Body = Record<string, unknown>;

describe('integrations: entities by external id, with main-api behind it (e2e)', () => {
  let main: MainApiTestApp;
  let proxy: MainApiProxy;
  let integrations: TestService<IntegrationsEnv>;
  let acme: number;
  let globex: number;
  let integrationsDb: DataSource;

  const call = (method: Method, url: string, body?: object, options?: CallAs) =>
    callIntegrations(integrations.app, main.keys, acme, method, url, body, options);
  const mainApiGet = async (url: string, company = acme) => {
    const response = await main.call('GET', url, undefined, { company });
    return { status: response.statusCode, body: response.json<Body>() };
  };
  const expectError = (response: LightMyRequestResponse, status: number, error: string, code: string) => {
    expect({ status: response.statusCode, ...response.json<Body>() }).toEqual({
      status,
      error,
      code,
      message: expect.any(String),
    });
  };
  const metadata = (source = 'JIRA') => ({ metadata: { source } });

  beforeAll(async () => {
    main = await startMainApiTestApp(['Acme', 'Globex']);
    const mainApiUrl = await main.listen();
    proxy = await MainApiProxy.start(mainApiUrl);
    integrations = await startTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        MAIN_API_URL: proxy.server.url,
        MAIN_API_TIMEOUT_MS: '3000',
        MAIN_API_BREAKER_THRESHOLD: '1000',
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
      },
    });
    [acme, globex] = main.companies.map((company) => company.companyId) as [number, number];
    integrationsDb = await new DataSource(integrationsOwnerDataSourceOptions(integrations.env)).initialize();
  });

  afterAll(async () => {
    // Each one closed even when one before it throws (closing a test service can report a failure),
    // so a failing file ends instead of hanging on open servers.
    try {
      await integrationsDb?.destroy();
      await integrations?.close();
    } finally {
      await proxy?.server.stop();
      await main?.close();
    }
  });

  afterEach(() => {
    proxy.loseAnswer = undefined;
    proxy.failBefore = undefined;
  });

  describe('the README story: a client, a project referencing it, a rename', () => {
    it('creates both by external id and renames the project in main-api', async () => {
      const client = await call('POST', '/clients', { ...metadata(), id: 'CLI-1', name: 'Acme Foods' });
      expect(client.statusCode).toBe(201);
      const project = await call('POST', '/projects', {
        ...metadata(),
        id: 'PROJ-1',
        name: 'Spring',
        client_id: 'CLI-1',
        start: '2026-03-01',
        end: '2026-06-30',
      });
      expect(project.statusCode).toBe(201);
      const projectId = project.json<{ id: number }>().id;
      expect(projectId).toEqual(expect.any(Number));
      expect((await mainApiGet(`/projects/${projectId}`)).body).toMatchObject({
        name: 'Spring',
        client: { id: client.json<{ id: number }>().id },
      });

      const renamed = await call('PUT', '/projects/PROJ-1', { ...metadata(), name: 'Spring launch' });

      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ id: projectId, name: 'Spring launch' });
      expect((await mainApiGet(`/projects/${projectId}`)).body).toMatchObject({ name: 'Spring launch' });
      expect((await call('GET', '/projects/PROJ-1?source=JIRA')).json()).toMatchObject({
        platform_id: projectId,
        state: 'complete',
      });
    });
  });

  describe('metadata.source and validation', () => {
    it.each([
      ['no metadata', { id: 'W-1', name: 'Studio' }],
      ['metadata without source', { metadata: {}, id: 'W-1', name: 'Studio' }],
      ['an unknown source', { metadata: { source: 'MYSPACE' }, id: 'W-1', name: 'Studio' }],
      ['a lower-case source', { metadata: { source: 'jira' }, id: 'W-1', name: 'Studio' }],
      ['no external id', { ...metadata(), name: 'Studio' }],
      ['no name', { ...metadata(), id: 'W-1' }],
      ['a numeric external id', { ...metadata(), id: 7, name: 'Studio' }],
    ])('refuses %s with ValidationError ZC002', async (_case, body) => {
      expectError(await call('POST', '/workspaces', body), 400, 'ValidationError', 'ZC002');
    });

    it('names an unknown reference and reserves nothing', async () => {
      const response = await call('POST', '/brands', {
        ...metadata(),
        id: 'B-X',
        name: 'X',
        client_id: 'NOPE',
      });

      expectError(response, 400, 'ValidationError', 'ZC002');
      expect(response.json<{ message: string }>().message).toContain('client_id');
      expect((await call('GET', '/brands/B-X?source=JIRA')).statusCode).toBe(404);
    });

    it('refuses roles below Director with 403', async () => {
      const response = await call(
        'POST',
        '/workspaces',
        { ...metadata(), id: 'W-R', name: 'x' },
        { role: 3 },
      );

      expectError(response, 403, 'Forbidden', 'ZC001');
    });

    it("holds a Director to main-api's role grants: no C-Level user, and no mapping left", async () => {
      // A real Director: created in main-api, logged in with the password grant, and its token
      // forwarded by integrations to main-api as any caller's is.
      const password = 'a-directors-long-password';
      const director = await main.call('POST', '/users', {
        first_name: 'D',
        last_name: 'R',
        email: 'director@integrations.test',
        role_id: 2,
        password,
      });
      expect(director.statusCode).toBe(201);
      const login = await main.service.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'password',
          username: 'director@integrations.test',
          password,
        }).toString(),
      });
      expect(login.statusCode).toBe(200);
      const asDirector = (body: object) =>
        integrations.app.inject({
          method: 'POST',
          url: '/v2/integrations/users',
          headers: { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
          payload: body,
        });
      const user = (id: string, roleId: number) => ({
        ...metadata(),
        id,
        first_name: 'C',
        last_name: 'L',
        email: `${id.toLowerCase()}@integrations.test`,
        role_id: roleId,
      });

      const cLevel = await asDirector(user('CEO-2', 1));
      const manager = await asDirector(user('PM-2', 3));

      expect(cLevel.statusCode).toBe(403);
      expect(cLevel.json()).toMatchObject({
        code: 'ZC003',
        message: expect.stringContaining('Only a C-Level user can create'),
      });
      expect((await call('GET', '/users/CEO-2?source=JIRA')).statusCode).toBe(404);
      expect(manager.statusCode).toBe(201);
    });
  });

  describe('workspaces (interfaces.md)', () => {
    it('answers exactly the workspace fields, timestamps in ISO 8601 UTC', async () => {
      const response = await call('POST', '/workspaces', { ...metadata(), id: 'W-1', name: 'Studio' });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        name: 'Studio',
        active: true,
        description: null,
        company_id: acme,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
      });
      const updated = await call('PUT', '/workspaces/W-1', { ...metadata(), active: false });
      expect(updated.json()).toMatchObject({ name: 'Studio', active: false });
    });

    it('refuses the same external id again with DuplicateExternalIdError, and keeps sources apart', async () => {
      expectError(
        await call('POST', '/workspaces', { ...metadata(), id: 'W-1', name: 'Again' }),
        422,
        'DuplicateExternalIdError',
        'ZC002',
      );
      const otherSource = await call('POST', '/workspaces', {
        ...metadata('HUBSPOT'),
        id: 'W-1',
        name: 'CRM one',
      });
      expect(otherSource.statusCode).toBe(201);
      expect(otherSource.json<{ name: string }>().name).toBe('CRM one');
    });

    it('has no delete (interfaces.md lists create and update)', async () => {
      expect((await call('DELETE', '/workspaces/W-1?source=JIRA')).statusCode).toBe(404);
    });
  });

  describe('answers exactly as the OpenAPI document says', () => {
    interface Schema {
      $ref?: string;
      oneOf?: Schema[];
      type?: string | string[];
      format?: string;
      items?: Schema;
      properties?: Record<string, Schema>;
    }
    let document: {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
      >;
      components: { schemas: Record<string, Schema> };
    };
    const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    const resolve = (schema: Schema): Schema =>
      schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop() as string]) : schema;

    /** `value` has exactly the fields its schema documents, at every level, and date-times in ISO UTC. */
    const expectExactly = (schema: Schema, value: unknown, at: string): void => {
      const resolved = resolve(schema);
      if (value === null) {
        return;
      }
      if (resolved.oneOf) {
        expectExactly(resolved.oneOf.find((option) => option.type !== 'null') as Schema, value, at);
      } else if (resolved.items) {
        (value as unknown[]).forEach((item, index) =>
          expectExactly(resolved.items as Schema, item, `${at}[${index}]`),
        );
      } else if (resolved.properties) {
        expect({ at, fields: Object.keys(value as object).sort() }).toEqual({
          at,
          fields: Object.keys(resolved.properties).sort(),
        });
        for (const [field, inner] of Object.entries(resolved.properties)) {
          expectExactly(inner, (value as Body)[field], `${at}.${field}`);
        }
      } else if (resolved.format === 'date-time') {
        expect({ at, value }).toEqual({ at, value: expect.stringMatching(ISO_UTC) });
      }
    };
    const created = async (path: string, body: object) => {
      const response = await call('POST', path, { ...metadata('CUSTOM'), ...body });
      expect({ path, status: response.statusCode }).toEqual({ path, status: 201 });
      const schema =
        document.paths[`/v2/integrations${path}`].post.responses['201'].content['application/json'].schema;
      expectExactly(schema, response.json(), path);
      return response.json<Body>();
    };

    beforeAll(async () => {
      document = (await integrations.app.inject({ method: 'GET', url: '/docs-json' })).json();
    });

    it("answers each entity's create with exactly its documented fields", async () => {
      await created('/clients', { id: 'X-C', name: 'Exact client', email: 'exact@client.test' });
      await created('/brands', { id: 'X-B', name: 'Exact brand', client_id: 'X-C' });
      await created('/position-categories', { id: 'X-PC', name: 'Exact category' });
      await created('/positions', { id: 'X-P', name: 'Exact position', category_id: 'X-PC' });
      const user = await created('/users', {
        id: 'X-U',
        first_name: 'Exact',
        last_name: 'User',
        email: 'exact@user.test',
        role_id: 4,
        user_position_id: 'X-P',
      });
      await created('/contracts', {
        id: 'X-K',
        name: 'Exact contract',
        client_id: 'X-C',
        start: '2026-01-01',
      });
      await created('/teams', { id: 'X-T', name: 'Exact team' });
      await created('/projects', {
        id: 'X-PR',
        name: 'Exact project',
        client_id: 'X-C',
        brand_id: 'X-B',
        pm_id: 'X-U',
        contract_id: 'X-K',
      });
      await created('/workspaces', { id: 'X-W', name: 'Exact workspace' });
      const week = [{ day_of_week: 2, daily_hours: 7.5, start_at: '09:00:00', end_at: '17:00:00' }];
      expect(await created('/working-time', { id: 'X-WT', user_id: 'X-U', entries: week })).toEqual([
        {
          day_of_week: 2,
          daily_hours: 7.5,
          start_at: '09:00:00',
          end_at: '17:00:00',
          break_time: 0,
          user_id: user.id,
        },
      ]);
      await created('/user-leaves', {
        id: 'X-L',
        userId: 'X-U',
        leaveTypeId: 2,
        start: '2026-10-05T00:00:00Z',
        end: '2026-10-06T23:59:59Z',
      });
    });

    it('answers project and contract start and end in ISO 8601 UTC, as every other date-time', async () => {
      const project = await created('/projects', {
        id: 'X-PR-DATES',
        name: 'Dated project',
        client_id: 'X-C',
        start: '2026-03-01',
        end: '2026-06-30',
      });
      const renamed = await call('PUT', '/projects/X-PR-DATES', { ...metadata('CUSTOM'), end: '2026-07-31' });
      const contract = await created('/contracts', {
        id: 'X-K-DATES',
        name: 'Dated contract',
        client_id: 'X-C',
        start: '2026-01-01',
        end: '2026-12-31',
      });

      expect(project).toMatchObject({ start: '2026-03-01T00:00:00.000Z', end: '2026-06-30T00:00:00.000Z' });
      expect(renamed.json()).toMatchObject({
        start: '2026-03-01T00:00:00.000Z',
        end: '2026-07-31T00:00:00.000Z',
      });
      expect(contract).toMatchObject({ start: '2026-01-01T00:00:00.000Z', end: '2026-12-31T00:00:00.000Z' });
      expect(project.created_at).toMatch(ISO_UTC);
    });

    it('answers a delete with the deleted entity, or only its id when main-api no longer has it', async () => {
      const deleted = await call('DELETE', '/brands/X-B?source=CUSTOM');
      const project = await call('DELETE', '/projects/X-PR-DATES?source=CUSTOM');

      expect(deleted.statusCode).toBe(200);
      expectExactly(
        document.paths['/v2/integrations/brands/{external_id}'].delete.responses['200'].content[
          'application/json'
        ].schema,
        deleted.json(),
        'DELETE /brands',
      );
      expect(deleted.json<Body>().deleted_at).toMatch(ISO_UTC);
      // main-api has no project delete: the mapping goes, the platform project stays.
      expect(project.json()).toEqual({ id: expect.any(Number) });
    });
  });

  describe('every entity and operation', () => {
    it('runs the whole catalogue by external ids of one source', async () => {
      const s = metadata('HUBSPOT');
      const ok = async (method: Method, url: string, body: object, status: number) => {
        const response = await call(method, url, body);
        expect({ url, status: response.statusCode, body: response.json<Body>() }).toMatchObject({
          url,
          status,
        });
        return response.json<Body>();
      };
      const client = await ok('POST', '/clients', { ...s, id: 'C1', name: 'Client' }, 201);
      await ok('PUT', '/clients/C1', { ...s, name: 'Client renamed' }, 200);
      const brand = await ok('POST', '/brands', { ...s, id: 'B1', name: 'Brand', client_id: 'C1' }, 201);
      expect(brand.client_id).toBe(client.id);
      await ok('PUT', '/brands/B1', { ...s, description: 'New' }, 200);
      const category = await ok('POST', '/position-categories', { ...s, id: 'PC1', name: 'Creative' }, 201);
      const position = await ok(
        'POST',
        '/positions',
        { ...s, id: 'P1', name: 'Designer', category_id: 'PC1' },
        201,
      );
      expect(position.category_id).toBe(category.id);
      await ok('PUT', '/positions/P1', { ...s, name: 'Senior designer' }, 200);
      await ok('PUT', '/position-categories/PC1', { ...s, name: 'Design' }, 200);
      const user = await ok(
        'POST',
        '/users',
        { ...s, id: 'U1', first_name: 'Ada', last_name: 'L', email: 'ada@crm.test', role_id: 4 },
        201,
      );
      await ok(
        'POST',
        '/users',
        { ...s, id: 'U2', first_name: 'Bob', last_name: 'M', email: 'bob@crm.test', role_id: 4 },
        201,
      );
      await ok('PUT', '/users/U1', { ...s, last_name: 'Lovelace' }, 200);
      const assigned = await ok('PUT', '/users/U1/position', { ...s, position_id: 'P1' }, 200);
      expect(assigned).toMatchObject({
        id: user.id,
        user_position_id: position.id,
        position_name: 'Senior designer',
      });
      const contract = await ok('POST', '/contracts', { ...s, id: 'K1', name: 'MSA', client_id: 'C1' }, 201);
      await ok('PUT', '/contracts/K1', { ...s, name: 'MSA 2027' }, 200);
      await ok('POST', '/contracts/K1/users', { ...s, users: ['U1', 'U2'] }, 200);
      await ok('DELETE', '/contracts/K1/users', { ...s, users: ['U2'] }, 200);
      const team = await ok('POST', '/teams', { ...s, id: 'T1', name: 'Pod' }, 201);
      await ok('PUT', '/teams/T1', { ...s, description: 'Brand pod' }, 200);
      expect(await ok('POST', '/teams/T1/users', { ...s, users: ['U1', 'U2'] }, 200)).toMatchObject({
        id: team.id,
        user_ids: [user.id, expect.any(Number)],
      });
      expect(await ok('DELETE', '/teams/T1/users', { ...s, users: ['U2'] }, 200)).toMatchObject({
        user_ids: [user.id],
      });
      const project = await ok(
        'POST',
        '/projects',
        { ...s, id: 'PR1', name: 'Launch', client_id: 'C1', brand_id: 'B1', pm_id: 'U1', contract_id: 'K1' },
        201,
      );
      expect(project).toMatchObject({
        client: { id: client.id },
        pm_id: user.id,
        brand_id: brand.id,
        contract_id: contract.id,
      });
      const week = [{ day_of_week: 1, daily_hours: 8, start_at: '09:00:00', end_at: '17:00:00' }];
      await ok('POST', '/working-time', { ...s, id: 'WT1', user_id: 'U1', entries: week }, 201);
      expect((await mainApiGet(`/working-time/users/${String(user.id)}`)).body).toEqual([
        expect.objectContaining({ day_of_week: 1, daily_hours: 8 }),
      ]);
      const leave = await ok(
        'POST',
        '/user-leaves',
        {
          ...s,
          id: 'L1',
          userId: 'U1',
          leaveTypeId: 1,
          start: '2026-12-21T00:00:00Z',
          end: '2026-12-24T23:59:59Z',
          allDay: true,
        },
        201,
      );
      expect(leave).toMatchObject({ user_id: user.id, all_day: true });

      // Deletes: the entity goes in main-api, then its mapping.
      await ok('DELETE', '/working-time/WT1', s, 200);
      expect((await mainApiGet(`/working-time/users/${String(user.id)}`)).body).toEqual([]);
      await ok('DELETE', '/projects/PR1?source=HUBSPOT', {}, 200);
      await ok('DELETE', '/contracts/K1', s, 200);
      await ok('DELETE', '/brands/B1', s, 200);
      await ok('DELETE', '/positions/P1', s, 200);
      await ok('DELETE', '/position-categories/PC1', s, 200);
      await ok('DELETE', '/users/U2', s, 200);
      await ok('DELETE', '/clients/C1', s, 200);
      expect((await mainApiGet(`/clients/${String(client.id)}`)).status).toBe(404);
      expectError(
        await call('PUT', '/clients/C1', { ...s, name: 'x' }),
        404,
        'ExternalIdNotFoundError',
        'ZC001',
      );
      expectError(await call('DELETE', '/clients/C1', s), 404, 'ExternalIdNotFoundError', 'ZC001');

      // After a delete, the external id may be created again: a new entity, not a replay.
      const again = await ok('POST', '/clients', { ...s, id: 'C1', name: 'Client' }, 201);
      expect(again.id).not.toBe(client.id);
    });

    it('requires metadata.source on a DELETE, in the body or the query', async () => {
      expectError(await call('DELETE', '/clients/ANY'), 400, 'ValidationError', 'ZC002');
      expectError(await call('DELETE', '/clients/ANY?source=NOPE'), 400, 'ValidationError', 'ZC002');
      expectError(await call('DELETE', '/clients/ANY?source=JIRA'), 404, 'ExternalIdNotFoundError', 'ZC001');
    });

    describe('with the standard headers of interfaces.md on every request (issue 33)', () => {
      const withStandardHeaders = (method: Method, url: string, payload?: string) =>
        integrations.app.inject({
          method,
          url: `/v2/integrations${url}`,
          headers: {
            authorization: `Bearer ${signTestToken({ keys: main.keys, companyId: acme, roleId: 1 })}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          ...(payload === undefined ? {} : { payload }),
        });

      it('deletes by external id with Content-Type: application/json and an empty body (was 400 "Body cannot be empty")', async () => {
        await call('POST', '/clients', { ...metadata(), id: 'EMPTY-BODY', name: 'Deleted with headers' });

        const response = await withStandardHeaders('DELETE', '/clients/EMPTY-BODY?source=JIRA');

        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ name: 'Deleted with headers' });
        expectError(
          await call('DELETE', '/clients/EMPTY-BODY?source=JIRA'),
          404,
          'ExternalIdNotFoundError',
          'ZC001',
        );
      });

      it('answers an empty body without the source as it answers no body at all', async () => {
        const withHeaders = await withStandardHeaders('DELETE', '/clients/ANY');
        const bare = await call('DELETE', '/clients/ANY');

        expectError(withHeaders, 400, 'ValidationError', 'ZC002');
        expect(withHeaders.json()).toEqual(bare.json());
      });

      it('still refuses a non-empty malformed JSON body with 400 in its own error body', async () => {
        const response = await withStandardHeaders('DELETE', '/clients/ANY?source=JIRA', '{"metadata": ');

        expectError(response, 400, 'ValidationError', 'ZC002');
        expect(response.json<{ message: string }>().message).toContain('JSON');
      });
    });

    it('passes main-api refusals through with their status and ZC003, leaving no mapping', async () => {
      await call('POST', '/users', {
        ...metadata(),
        id: 'TAKEN-1',
        first_name: 'A',
        last_name: 'B',
        email: 'taken@x.test',
        role_id: 4,
      });

      const clash = await call('POST', '/users', {
        ...metadata(),
        id: 'TAKEN-2',
        first_name: 'A',
        last_name: 'B',
        email: 'taken@x.test',
        role_id: 4,
      });

      expect(clash.statusCode).toBe(422);
      expect(clash.json()).toMatchObject({ code: 'ZC003', message: expect.stringContaining('mail') });
      expect((await call('GET', '/users/TAKEN-2?source=JIRA')).statusCode).toBe(404);
    });
  });

  describe('safe under concurrency and failure', () => {
    it('50 concurrent creates of one external id: one entity in main-api, one mapping', async () => {
      const body = { ...metadata('ZAPIER'), id: 'RACE-1', name: 'Race client' };

      const responses = await Promise.all(Array.from({ length: 50 }, () => call('POST', '/clients', body)));

      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      for (const response of responses.filter((candidate) => candidate.statusCode !== 201)) {
        expectError(response, 422, 'DuplicateExternalIdError', 'ZC002');
      }
      const inMainApi = await main.call(
        'GET',
        `/clients?page=false&filters=${encodeURIComponent('{"name":"Race client"}')}`,
      );
      expect(inMainApi.json<unknown[]>()).toHaveLength(1);
    });

    it('main-api failing before it creates: no mapping left, and a retry creates once', async () => {
      proxy.failBefore = (request) => request.method === 'POST' && request.url === '/v1/clients';
      const body = { ...metadata('SLACK'), id: 'FAIL-1', name: 'Fails first' };

      const failed = await call('POST', '/clients', body);

      expectError(failed, 503, 'MainApiUnavailableError', 'ZC003');
      expect((await call('GET', '/clients/FAIL-1?source=SLACK')).statusCode).toBe(404);
      proxy.failBefore = undefined;
      expect((await call('POST', '/clients', body)).statusCode).toBe(201);
      const named = await main.call(
        'GET',
        `/clients?page=false&filters=${encodeURIComponent('{"name":"Fails first"}')}`,
      );
      expect(named.json<unknown[]>()).toHaveLength(1);
    });

    it('main-api creating but its answer lost: no mapping left, and the retry is replayed, not created again', async () => {
      proxy.loseAnswer = (request) => request.method === 'POST' && request.url === '/v1/clients';
      const body = { ...metadata('SLACK'), id: 'LOST-1', name: 'Answer lost' };

      const failed = await call('POST', '/clients', body);

      expectError(failed, 503, 'MainApiUnavailableError', 'ZC003');
      expect((await call('GET', '/clients/LOST-1?source=SLACK')).statusCode).toBe(404);
      proxy.loseAnswer = undefined;
      const retried = await call('POST', '/clients', body);
      expect(retried.statusCode).toBe(201);
      const named = await main.call(
        'GET',
        `/clients?page=false&filters=${encodeURIComponent('{"name":"Answer lost"}')}`,
      );
      expect(named.json<{ id: number }[]>()).toEqual([
        { ...named.json<{ id: number }[]>()[0], id: retried.json<{ id: number }>().id },
      ]);
    });
  });

  describe('a create that crashed between main-api and the mapping', () => {
    const reservePending = (externalId: string, leaseSeconds: number) =>
      integrationsDb.query(
        `INSERT INTO external_mappings (company_id, source, entity, external_id, state, lease_until)
         VALUES ($1, 'SAP', 'clients', $2, 'pending', now() + make_interval(secs => $3))`,
        [acme, externalId, leaseSeconds],
      );

    it('is taken over by the next attempt once its lease has expired', async () => {
      await reservePending('CRASH-1', -1);

      const response = await call('POST', '/clients', {
        ...metadata('SAP'),
        id: 'CRASH-1',
        name: 'After a crash',
      });

      expect(response.statusCode).toBe(201);
      expect((await call('GET', '/clients/CRASH-1?source=SAP')).json()).toMatchObject({
        state: 'complete',
        platform_id: response.json<{ id: number }>().id,
      });
    });

    it('still blocks a second create while the first holds its lease', async () => {
      await reservePending('INFLIGHT-1', 30);

      const response = await call('POST', '/clients', {
        ...metadata('SAP'),
        id: 'INFLIGHT-1',
        name: 'Too early',
      });

      expectError(response, 422, 'DuplicateExternalIdError', 'ZC002');
    });
  });

  describe('webhooks', () => {
    let secret: string;
    /** Standard Webhooks, written from the convention: the id is signed with the timestamp and body. */
    const sign = (id: string, body: string, timestamp: number, key = secret) =>
      `v1,${createHmac('sha256', Buffer.from(key.replace(/^whsec_/, ''), 'base64'))
        .update(`${id}.${timestamp}.${body}`)
        .digest('base64')}`;
    /** The form documented first: timestamp and body only, keyed with the secret as text. */
    const signDocumented = (body: string, timestamp: number, key = secret) =>
      `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;
    const deliver = (
      event: object | string,
      options: {
        id?: string;
        timestamp?: number;
        signature?: string;
        company?: number;
        source?: string;
        /** The Standard Webhooks header names (webhook-id, ...) instead of the documented X-Webhook-*. */
        standardHeaders?: boolean;
        extraHeaders?: Record<string, string>;
      } = {},
    ) => {
      const body = typeof event === 'string' ? event : JSON.stringify(event);
      const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
      const id = options.id ?? `evt-${Math.random()}`;
      const prefix = options.standardHeaders ? '' : 'x-';
      return integrations.app.inject({
        method: 'POST',
        url: `/v2/integrations/webhooks/${options.source ?? 'GITHUB'}`,
        headers: {
          'content-type': 'application/json',
          'x-company-id': String(options.company ?? acme),
          [`${prefix}webhook-id`]: id,
          [`${prefix}webhook-timestamp`]: String(timestamp),
          [`${prefix}webhook-signature`]: options.signature ?? sign(id, body, timestamp),
          ...options.extraHeaders,
        },
        payload: body,
      });
    };
    const storedEvents = async () =>
      Number(
        (await integrationsDb.query<{ count: string }[]>('SELECT count(*) FROM webhook_events'))[0]?.count,
      );

    beforeAll(async () => {
      const company = main.companies[0];
      const setUp = await call('PUT', '/webhook-sources/GITHUB', {
        api_key: company.apiKey,
        client_secret: company.clientSecret,
      });
      expect(setUp.statusCode).toBe(200);
      secret = setUp.json<{ signing_secret: string }>().signing_secret;
    });

    it('is set up by C-Level users only, with a working API client of their company', async () => {
      const company = main.companies[0];
      const credentials = { api_key: company.apiKey, client_secret: company.clientSecret };

      expect((await call('PUT', '/webhook-sources/SLACK', credentials, { role: 2 })).statusCode).toBe(403);
      expectError(
        await call('PUT', '/webhook-sources/SLACK', { ...credentials, client_secret: 'wrong' }),
        400,
        'ValidationError',
        'ZC002',
      );
      const other = main.companies[1];
      const foreign = await call('PUT', '/webhook-sources/SLACK', {
        api_key: other.apiKey,
        client_secret: other.clientSecret,
      });
      expectError(foreign, 400, 'ValidationError', 'ZC002');
      expect(foreign.json<{ message: string }>().message).toContain('another company');
      expect((await call('GET', '/webhook-sources')).json()).toEqual([
        {
          source: 'GITHUB',
          api_key: company.apiKey,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
    });

    it("drops its cached token of a source's API client once main-api revokes it, and asks for a new one", async () => {
      const client = await new ProvisioningService(main.dataSource).addClient({
        companyId: acme,
        name: 'Zapier source',
        roleId: 1,
      });
      const setUp = await call('PUT', '/webhook-sources/ZAPIER', {
        api_key: client.apiKey,
        client_secret: client.clientSecret,
      });
      expect(setUp.statusCode).toBe(200);
      const zapierSecret = setUp.json<{ signing_secret: string }>().signing_secret;
      const deliverZapier = (id: string, entity = 'clients', data: object = { name: id }) => {
        const body = JSON.stringify({ action: 'create', entity, external_id: id, data });
        const timestamp = Math.floor(Date.now() / 1000);
        return deliver(body, {
          id,
          source: 'ZAPIER',
          timestamp,
          signature: sign(id, body, timestamp, zapierSecret),
        });
      };
      const tokenRequests = () =>
        proxy.server.requests.filter((request) => request.url.startsWith('/v1/oauth/token')).length;
      const before = tokenRequests();
      // An event refused before any call to main-api: the service now holds a token main-api never saw.
      const primed = await deliverZapier('ZAP-0', 'projects', { name: 'P', client_id: 'NO-SUCH-CLIENT' });
      expect(primed.statusCode).toBe(400);
      expect(tokenRequests()).toBe(before + 1);
      await main.dataSource.query('UPDATE api_clients SET revoked_at = now() WHERE api_key = $1', [
        client.apiKey,
      ]);

      const withCachedToken = await deliverZapier('ZAP-1');
      const tokenRequestsAfterRefusal = tokenRequests();
      const afterRefusal = await deliverZapier('ZAP-2');

      expect(withCachedToken.statusCode).toBe(401);
      expect(withCachedToken.json()).toMatchObject({ error: 'MainApiError', code: 'ZC003' });
      expect(tokenRequestsAfterRefusal).toBe(before + 1);
      // The refused token was dropped: the next event asked main-api for a new one, and got none.
      expect(tokenRequests()).toBe(before + 2);
      expect(afterRefusal.statusCode).toBe(401);
      expect(afterRefusal.json<{ message: string }>().message).toContain('refused the API client');
    });

    it('applies a signed event through the create path, once per event id', async () => {
      const event = {
        action: 'create',
        entity: 'clients',
        external_id: 'GH-C1',
        data: { name: 'From a webhook' },
      };

      const first = await deliver(event, { id: 'evt-1' });
      const again = await deliver(event, { id: 'evt-1' });

      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ event_id: 'evt-1', status: 'applied', platform_id: expect.any(Number) });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ ...first.json<object>(), duplicate: true });
      const named = await main.call(
        'GET',
        `/clients?page=false&filters=${encodeURIComponent('{"name":"From a webhook"}')}`,
      );
      expect(named.json<unknown[]>()).toHaveLength(1);
      expect((await call('GET', '/clients/GH-C1?source=GITHUB')).json()).toMatchObject({ state: 'complete' });
    });

    it('updates and deletes by external id', async () => {
      await deliver({
        action: 'create',
        entity: 'projects',
        external_id: 'GH-P1',
        data: { name: 'Repo', client_id: 'GH-C1' },
      });

      const renamed = await deliver({
        action: 'update',
        entity: 'projects',
        external_id: 'GH-P1',
        data: { name: 'Repo v2' },
      });

      const platformId = renamed.json<{ platform_id: number }>().platform_id;
      expect((await mainApiGet(`/projects/${platformId}`)).body).toMatchObject({ name: 'Repo v2' });
      expect((await deliver({ action: 'delete', entity: 'projects', external_id: 'GH-P1' })).statusCode).toBe(
        200,
      );
      expect((await call('GET', '/projects/GH-P1?source=GITHUB')).statusCode).toBe(404);
    });

    it.each([
      ['a wrong signature', { signature: `v1,${'A'.repeat(43)}=` }],
      ['a wrong signature of the documented form', { signature: `sha256=${'0'.repeat(64)}` }],
      ['a signature made with another secret', { signature: 'other-secret' }],
      ['a documented-form signature made with another secret', { signature: 'other-secret-documented' }],
      ['no signature', { signature: '' }],
      ['a timestamp more than 5 minutes old', { offset: -301 }],
      ['a timestamp more than 5 minutes ahead', { offset: 301 }],
      ['a company without this source', { company: 999 }],
      ['a source not set up', { source: 'OKTA' }],
      ['X-Webhook-Id and webhook-id that differ', { extraHeaders: { 'webhook-id': 'evt-other' } }],
    ] as [
      string,
      {
        signature?: string;
        offset?: number;
        company?: number;
        source?: string;
        extraHeaders?: Record<string, string>;
      },
    ][])('answers 401 and stores nothing for %s', async (_case, options) => {
      const before = await storedEvents();
      const body = JSON.stringify({
        action: 'create',
        entity: 'clients',
        external_id: 'GH-X',
        data: { name: 'x' },
      });
      const timestamp = Math.floor(Date.now() / 1000) + (options.offset ?? 0);
      const signature =
        options.signature === 'other-secret'
          ? sign('evt-x', body, timestamp, 'whsec_b3RoZXI=')
          : options.signature === 'other-secret-documented'
            ? signDocumented(body, timestamp, 'whsec_other')
            : options.signature;

      const response = await deliver(body, {
        ...options,
        id: 'evt-x',
        timestamp,
        ...(signature === undefined ? {} : { signature }),
      });

      expectError(response, 401, 'Unauthorized', 'ZC001');
      expect(await storedEvents()).toBe(before);
    });

    it.each([
      ['Standard Webhooks', (body: string, timestamp: number) => sign('evt-t', body, timestamp)],
      ['documented', (body: string, timestamp: number) => signDocumented(body, timestamp)],
    ])('refuses a body changed after signing (%s form)', async (_form, signWith) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const signed = JSON.stringify({
        action: 'create',
        entity: 'clients',
        external_id: 'GH-T',
        data: { name: 'a' },
      });

      const response = await deliver(signed.replace('"a"', '"b"'), {
        id: 'evt-t',
        timestamp,
        signature: signWith(signed, timestamp),
      });

      expect(response.statusCode).toBe(401);
    });

    it('answers a signed but malformed event 400, and an invalid one with the same answer on every delivery', async () => {
      expectError(await deliver('{"action":"explode"}'), 400, 'ValidationError', 'ZC002');
      expectError(await deliver('not json'), 400, 'ValidationError', 'ZC002');
      const nul = { action: 'create', entity: 'clients', external_id: 'GH-NUL', data: { name: 'a\u0000b' } };
      expectError(await deliver(nul), 400, 'ValidationError', 'ZC002');
      const invalid = { action: 'create', entity: 'clients', external_id: 'GH-BAD', data: {} };

      const first = await deliver(invalid, { id: 'evt-bad' });
      const again = await deliver(invalid, { id: 'evt-bad' });

      expectError(first, 400, 'ValidationError', 'ZC002');
      expect(again.statusCode).toBe(400);
      // The same error body: an error body takes no other field (the document says so).
      expect(again.json()).toEqual(first.json());
    });

    it('answers 503 while main-api is down and applies the same event when it is delivered again', async () => {
      proxy.failBefore = (request) => request.method === 'POST' && request.url === '/v1/clients';
      const event = {
        action: 'create',
        entity: 'clients',
        external_id: 'GH-LATER',
        data: { name: 'Applied later' },
      };

      const down = await deliver(event, { id: 'evt-later' });
      proxy.failBefore = undefined;
      const retried = await deliver(event, { id: 'evt-later' });

      expectError(down, 503, 'MainApiUnavailableError', 'ZC003');
      expect(retried.json()).toMatchObject({ event_id: 'evt-later', status: 'applied' });
    });

    describe('the event id is bound to the signature (replays under a new id)', () => {
      const clientsNamed = async (name: string) =>
        (
          await main.call(
            'GET',
            `/clients?page=false&filters=${encodeURIComponent(JSON.stringify({ name }))}`,
          )
        ).json<unknown[]>().length;
      const eventsWithId = async (id: string) =>
        Number(
          (
            await integrationsDb.query<{ count: string }[]>(
              'SELECT count(*) FROM webhook_events WHERE event_id = $1',
              [id],
            )
          )[0]?.count,
        );

      it('refuses a Standard Webhooks delivery sent again under a new id within the window: 401, nothing stored', async () => {
        const body = JSON.stringify({
          action: 'create',
          entity: 'clients',
          external_id: 'GH-REPLAY-1',
          data: { name: 'Replayed standard' },
        });
        const timestamp = Math.floor(Date.now() / 1000);
        const signature = sign('evt-replay-1', body, timestamp);

        const first = await deliver(body, { id: 'evt-replay-1', timestamp, signature });
        const replayed = await deliver(body, { id: 'evt-replay-1-again', timestamp, signature });

        expect(first.json()).toMatchObject({ event_id: 'evt-replay-1', status: 'applied' });
        expectError(replayed, 401, 'Unauthorized', 'ZC001');
        expect(await eventsWithId('evt-replay-1-again')).toBe(0);
        expect(await clientsNamed('Replayed standard')).toBe(1);
      });

      it('refuses a documented-form delivery (sha256=, timestamp and body) sent again under a new id: 401, nothing stored', async () => {
        const body = JSON.stringify({
          action: 'update',
          entity: 'clients',
          external_id: 'GH-REPLAY-1',
          data: { name: 'Replayed documented' },
        });
        const timestamp = Math.floor(Date.now() / 1000);
        const signature = signDocumented(body, timestamp);

        const first = await deliver(body, { id: 'evt-replay-2', timestamp, signature });
        const retried = await deliver(body, { id: 'evt-replay-2', timestamp, signature });
        const replayed = await deliver(body, { id: 'evt-replay-2-again', timestamp, signature });

        expect(first.json()).toMatchObject({ event_id: 'evt-replay-2', status: 'applied' });
        // The same id again is a retry of the same event: its first outcome, as before.
        expect(retried.json()).toEqual({ ...first.json<object>(), duplicate: true });
        expectError(replayed, 401, 'Unauthorized', 'ZC001');
        expect(replayed.json<{ message: string }>().message).toContain('another event id');
        expect(await eventsWithId('evt-replay-2-again')).toBe(0);
      });

      it('still accepts the documented form from a sender that retries with a fresh timestamp', async () => {
        const body = JSON.stringify({
          action: 'create',
          entity: 'clients',
          external_id: 'GH-DOC-1',
          data: { name: 'Documented sender' },
        });
        const now = Math.floor(Date.now() / 1000);

        const first = await deliver(body, {
          id: 'evt-doc-1',
          timestamp: now - 5,
          signature: signDocumented(body, now - 5),
        });
        const retried = await deliver(body, {
          id: 'evt-doc-1',
          timestamp: now,
          signature: signDocumented(body, now),
        });

        expect(first.json()).toMatchObject({ event_id: 'evt-doc-1', status: 'applied' });
        expect(retried.json()).toEqual({ ...first.json<object>(), duplicate: true });
        expect(await clientsNamed('Documented sender')).toBe(1);
      });

      it('accepts the Standard Webhooks header names (webhook-id, webhook-timestamp, webhook-signature)', async () => {
        const response = await deliver(
          { action: 'create', entity: 'clients', external_id: 'GH-STD-1', data: { name: 'Standard names' } },
          { id: 'msg_standard-1', standardHeaders: true },
        );

        expect(response.json()).toMatchObject({ event_id: 'msg_standard-1', status: 'applied' });
      });
    });

    describe('sealed source secrets', () => {
      const sealedOf = async (company: number, source: string) =>
        (
          await integrationsDb.query<{ signing_secret_sealed: string; client_secret_sealed: string }[]>(
            'SELECT signing_secret_sealed, client_secret_sealed FROM webhook_sources WHERE company_id = $1 AND source = $2',
            [company, source],
          )
        )[0];

      it("are bound to their row: one company's sealed secret copied into another's row does not open there", async () => {
        const other = main.companies[1];
        const setUp = await call(
          'PUT',
          '/webhook-sources/GITHUB',
          { api_key: other.apiKey, client_secret: other.clientSecret },
          { company: globex },
        );
        expect(setUp.statusCode).toBe(200);
        const mine = await sealedOf(acme, 'GITHUB');
        expect(mine.signing_secret_sealed).toMatch(/^v2\./);
        // Someone who can write the table, not holding the key, gives Globex's row Acme's secret.
        await integrationsDb.query(
          'UPDATE webhook_sources SET signing_secret_sealed = $1 WHERE company_id = $2 AND source = $3',
          [mine.signing_secret_sealed, globex, 'GITHUB'],
        );
        const before = await storedEvents();

        const response = await deliver(
          { action: 'create', entity: 'clients', external_id: 'GH-SWAP', data: { name: 'Swapped' } },
          { company: globex, id: 'evt-swap' },
        );

        expect(response.statusCode).toBe(500);
        expect(response.json<{ message: string }>().message).not.toContain('whsec_');
        expect(await storedEvents()).toBe(before);
        await integrationsDb.query('DELETE FROM webhook_sources WHERE company_id = $1', [globex]);
      });

      it('opens secrets sealed before they were bound, and binds them on first use', async () => {
        const key = Buffer.from(integrations.env.INTEGRATIONS_ENCRYPTION_KEY, 'base64');
        const sealTheOldWay = (plaintext: string) => {
          const iv = randomBytes(12);
          const cipher = createCipheriv('aes-256-gcm', key, iv);
          const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
          return ['v1', iv, cipher.getAuthTag(), ciphertext]
            .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
            .join('.');
        };
        const company = main.companies[0];
        // A source as an earlier version stored it: base64url secret, both secrets unbound (v1).
        const oldSecret = `whsec_${randomBytes(32).toString('base64url')}`;
        await integrationsDb.query(
          `UPDATE webhook_sources SET signing_secret_sealed = $1, client_secret_sealed = $2
            WHERE company_id = $3 AND source = 'GITHUB'`,
          [sealTheOldWay(oldSecret), sealTheOldWay(company.clientSecret), acme],
        );
        const body = JSON.stringify({
          action: 'create',
          entity: 'clients',
          external_id: 'GH-OLD-1',
          data: { name: 'Old secret' },
        });
        const timestamp = Math.floor(Date.now() / 1000);

        const response = await deliver(body, {
          id: 'evt-old-1',
          timestamp,
          signature: signDocumented(body, timestamp, oldSecret),
        });

        expect(response.json()).toMatchObject({ event_id: 'evt-old-1', status: 'applied' });
        expect(await sealedOf(acme, 'GITHUB')).toEqual({
          signing_secret_sealed: expect.stringMatching(/^v2\./),
          client_secret_sealed: expect.stringMatching(/^v2\./),
        });
        // The secret itself did not change: a sender may keep using it, in either form.
        const next = JSON.stringify({
          action: 'create',
          entity: 'clients',
          external_id: 'GH-OLD-2',
          data: { name: 'Old secret 2' },
        });
        const again = await deliver(next, {
          id: 'evt-old-2',
          timestamp,
          signature: sign('evt-old-2', next, timestamp, oldSecret),
        });
        expect(again.json()).toMatchObject({ event_id: 'evt-old-2', status: 'applied' });
        secret = oldSecret;
      });
    });
  });

  describe('database failure', () => {
    it('answers 500 DatabaseError ZC004 without SQL in the message', async () => {
      await integrationsDb.query('ALTER TABLE external_mappings RENAME TO external_mappings_away');
      try {
        const response = await call('PUT', '/clients/ANY', { ...metadata(), name: 'x' });

        expectError(response, 500, 'DatabaseError', 'ZC004');
        expect(response.json<{ message: string }>().message).not.toMatch(
          /external_mappings|SELECT|relation/i,
        );
      } finally {
        await integrationsDb.query('ALTER TABLE external_mappings_away RENAME TO external_mappings');
      }
    });
  });

  describe('companies', () => {
    it("answers another company's external ids as unknown", async () => {
      await call('POST', '/clients', { ...metadata('OKTA'), id: 'MINE-1', name: 'Mine' });

      expectError(
        await call('PUT', '/clients/MINE-1', { ...metadata('OKTA'), name: 'Theirs' }, { company: globex }),
        404,
        'ExternalIdNotFoundError',
        'ZC001',
      );
      expectError(
        await call('GET', '/clients/MINE-1?source=OKTA', undefined, { company: globex }),
        404,
        'ExternalIdNotFoundError',
        'ZC001',
      );
      const reference = await call(
        'POST',
        '/brands',
        { ...metadata('OKTA'), id: 'BR-G', name: 'x', client_id: 'MINE-1' },
        { company: globex },
      );
      expectError(reference, 400, 'ValidationError', 'ZC002');
    });
  });
});
