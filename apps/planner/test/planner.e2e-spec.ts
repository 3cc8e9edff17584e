import {
  itAuthenticatesEveryRoute,
  itRejectsBadBearerTokens,
  itServesTheOperationalEndpoints,
  signTestToken,
  startConsumerTestService,
  type ConsumerTestService,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { PlannerEnv } from '../src/config/planner.env';
import { plannerOwnerDataSourceOptions } from '../src/database/planner.data-source';
import { plannerService } from '../src/planner.service';

describe('planner (e2e)', () => {
  let service: ConsumerTestService<PlannerEnv>;
  let keys: ConsumerTestService<PlannerEnv>['keys'];
  let mainApi: ConsumerTestService<PlannerEnv>['mainApi'];

  beforeAll(async () => {
    service = await startConsumerTestService({
      definition: plannerService,
      envClass: PlannerEnv,
      dataSourceOptions: plannerOwnerDataSourceOptions,
    });
    ({ keys, mainApi } = service);
  });

  afterAll(() => service.close());

  itAuthenticatesEveryRoute({
    getApp: () => service.app,
    publicOperations: [
      'GET /health/live',
      'GET /health/ready',
      'GET /health/ready/self',
      // A stream ticket stands for the token, which EventSource cannot send (issue 41).
      'GET /v2/events/stream',
    ],
  });

  itServesTheOperationalEndpoints({
    getApp: () => service.app,
    getEnv: () => service.env,
    dataSourceOptions: plannerOwnerDataSourceOptions,
    openApiTitle: 'Resource allocation (planner)',
    committedOpenApi: 'openapi/planner.json',
    notFoundBody: { error: 'NotFoundError', message: 'Cannot GET /no-such-route' },
    malformedJsonBody: {
      error: 'InvalidAllocationError',
      message: expect.stringContaining('JSON') as unknown as string,
    },
  });

  describe('readiness', () => {
    afterEach(() => mainApi.reset());

    it('with main-api up: /health/ready checks the database and main-api at its liveness endpoint, /health/ready/self only the database', async () => {
      mainApi.requests.length = 0;
      const ready = await service.app.inject({ method: 'GET', url: '/health/ready' });
      const calledByReady = mainApi.requests.map((request) => request.url);
      mainApi.requests.length = 0;
      const self = await service.app.inject({ method: 'GET', url: '/health/ready/self' });

      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ok',
        info: { database: { status: 'up' }, 'main-api': { status: 'up' } },
      });
      expect(calledByReady).toEqual(['/health/live']);
      expect(self.statusCode).toBe(200);
      expect(self.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
      expect(Object.keys(self.json<{ details: object }>().details)).toEqual(['database']);
      expect(mainApi.requests).toEqual([]);
    });

    it('while main-api drops connections: /health/ready is 503 naming main-api, /health/ready/self stays 200, and a read that needs main-api answers 503 MainApiUnavailableError', async () => {
      // A first call caches main-api's keys, so that only the data call meets the outage.
      const token = signTestToken({ keys, roleId: 1 });
      await service.app.inject({
        method: 'GET',
        url: '/test-probe/principal',
        headers: { authorization: `Bearer ${token}` },
      });
      // The connection is dropped without an answer: what a stopped main-api behind its Service looks like.
      mainApi.respondWith((_request, response) => response.socket?.destroy());

      const ready = await service.app.inject({ method: 'GET', url: '/health/ready' });
      const self = await service.app.inject({ method: 'GET', url: '/health/ready/self' });
      const read = await service.app.inject({
        method: 'GET',
        url: '/allocation/getAllocations/7',
        headers: { authorization: `Bearer ${token}` },
      });

      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'error',
        info: { database: { status: 'up' } },
        error: { 'main-api': { status: 'down' } },
      });
      expect(self.statusCode).toBe(200);
      expect(self.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
      expect(read.statusCode).toBe(503);
      expect(read.json()).toEqual({ error: 'MainApiUnavailableError', message: expect.any(String) });
    });

    it('while main-api hangs: /health/ready is 503 within the check deadline, /health/ready/self answers 200 at once', async () => {
      mainApi.respondWith(() => undefined);

      const started = Date.now();
      const ready = await service.app.inject({ method: 'GET', url: '/health/ready' });
      const readyMs = Date.now() - started;
      const selfStarted = Date.now();
      const self = await service.app.inject({ method: 'GET', url: '/health/ready/self' });

      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ error: { 'main-api': { status: 'down' } } });
      expect(readyMs).toBeLessThan(2500);
      expect(self.statusCode).toBe(200);
      expect(Date.now() - selfStarted).toBeLessThan(500);
    });

    it('answers an allocation read 503 MainApiUnavailableError within the deadline while main-api hangs', async () => {
      // A first call caches main-api's keys, so that only the data calls meet the hang.
      const token = signTestToken({ keys, roleId: 1 });
      await service.app.inject({
        method: 'GET',
        url: '/test-probe/principal',
        headers: { authorization: `Bearer ${token}` },
      });
      mainApi.respondWith(() => undefined);

      const started = Date.now();
      const response = await service.app.inject({
        method: 'GET',
        url: '/allocation/getAllocations/7',
        headers: { authorization: `Bearer ${token}` },
      });

      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'MainApiUnavailableError', message: expect.any(String) });
      // MAIN_API_TIMEOUT_MS is 500 here: one deadline for the call, retries included.
      expect(Date.now() - started).toBeLessThan(1500);
    });
  });

  describe("authentication with keys from main-api's JWKS", () => {
    itRejectsBadBearerTokens({
      getApp: () => service.app,
      getKeys: () => keys,
      url: '/test-probe/principal',
      unauthorizedBody: (message) => ({ error: 'Unauthorized', message }),
    });

    it('gives handlers the principal of the token', async () => {
      const token = signTestToken({ keys, subject: 'client:5', companyId: 42, roleId: 2 });

      const response = await service.app.inject({
        method: 'GET',
        url: '/test-probe/principal',
        headers: { authorization: `Bearer ${token}` },
      });

      expect(response.json()).toEqual({
        subject: 'client:5',
        companyId: 42,
        roleId: 2,
        clientId: 5,
        tokenId: expect.any(String),
        epoch: 0,
      });
    });

    it.each([
      [1, 200],
      [3, 200],
      [4, 403],
      [6, 403],
    ])('lets role %i write allocations: %i', async (roleId, status) => {
      const token = signTestToken({ keys, roleId });

      const response = await service.app.inject({
        method: 'GET',
        url: '/test-probe/delivery',
        headers: { authorization: `Bearer ${token}` },
      });

      expect(response.statusCode).toBe(status);
      if (status === 403) {
        expect(response.json()).toEqual({
          error: 'Forbidden',
          message: 'Your role does not allow this operation',
        });
      }
    });
  });

  describe('allocations table', () => {
    let dataSource: DataSource;
    const insert = (projectId: number, from: string, to: string) =>
      dataSource.query(
        'INSERT INTO allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id) VALUES (1, 7, $1, $2, $3, 8, 1)',
        [projectId, from, to],
      );

    beforeAll(async () => {
      dataSource = await new DataSource(plannerOwnerDataSourceOptions(service.env)).initialize();
    });

    afterAll(() => dataSource.destroy());

    it('refuses, in the database, two allocations of a user on a project sharing a day', async () => {
      await insert(100, '2026-01-05', '2026-01-09');

      await expect(insert(100, '2026-01-09', '2026-01-16')).rejects.toMatchObject({
        driverError: expect.objectContaining({ code: '23P01', constraint: 'allocations_no_overlap' }),
      });
      await expect(insert(100, '2026-01-10', '2026-01-16')).resolves.toBeDefined();
      await expect(insert(101, '2026-01-05', '2026-01-09')).resolves.toBeDefined();
    });

    it('lets exactly one of two concurrent overlapping saves succeed', async () => {
      const outcomes = await Promise.allSettled([
        insert(200, '2026-02-02', '2026-02-06'),
        insert(200, '2026-02-04', '2026-02-10'),
      ]);

      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    });

    // A v2 allocation may be one day, and book 0 hours (its days pinned to nothing); the
    // interface's own rules (from before to, hours above 0) are its code's.
    it('refuses an inverted range and negative hours', async () => {
      await expect(insert(300, '2026-03-05', '2026-03-04')).rejects.toMatchObject({
        driverError: expect.objectContaining({ constraint: 'allocations_range_check' }),
      });
      await expect(
        dataSource.query(
          "INSERT INTO allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id) VALUES (1, 7, 301, '2026-03-01', '2026-03-02', -1, 1)",
        ),
      ).rejects.toMatchObject({
        driverError: expect.objectContaining({ constraint: 'allocations_hours_check' }),
      });
    });
  });
});
