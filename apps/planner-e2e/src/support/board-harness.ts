import { signTestToken, startTestService, type TestService } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
// A real main-api behind the planner, in process (see allocations.e2e-spec.ts).
import { startMainApiTestApp, type MainApiTestApp } from '../../../main-api/test/support/main-api-test-app';
import { PlannerEnv } from '../../../planner/src/config/planner.env';
import { plannerOwnerDataSourceOptions } from '../../../planner/src/database/planner.data-source';
import { plannerService } from '../../../planner/src/planner.service';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Body = Record<string, unknown>;

/** Monday to Friday, 8 hours a day. */
export const FULL_WEEK = [1, 2, 3, 4, 5].map((day) => ({
  day_of_week: day,
  daily_hours: 8,
  start_at: '09:00:00',
  end_at: '17:00:00',
}));

/** An event of the planner's change feed, as `GET /v2/events` answers it. */
export interface FeedEvent {
  cursor: string;
  entity: string;
  id: string;
  kind: string;
  changed_fields: string[];
  project_id: number | null;
  user_id: number | null;
  data: Body | null;
  occurred_at: string;
}

/**
 * A planning board's test bench: main-api and the planner, in process, with companies made by
 * main-api's test app, and the calls a board makes as the first company's owner. What each planner
 * e2e spec would otherwise set up again.
 */
export interface Board {
  main: MainApiTestApp;
  planner: TestService<PlannerEnv>;
  /** The planner's real port, for what needs a real connection (a change stream). */
  plannerUrl: string;
  /** The first company, its owner, and a client to put projects under. */
  companyId: number;
  bossId: number;
  clientId: number;
  tokenOf(companyId: number, userId: number, roleId?: number): string;
  /** A planner call as the first company's owner (headers override, e.g. another token). */
  call(
    method: Method,
    url: string,
    body?: object,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** The answer's JSON, after checking its status. */
  ok<T>(response: Promise<LightMyRequestResponse>, status?: number): Promise<T>;
  /** A main-api creation's id (201 checked). */
  created(response: Promise<LightMyRequestResponse>): Promise<number>;
  newProject(name: string): Promise<number>;
  /** A person with the full week (8 hours Monday to Friday); anyone, when no name matters. */
  newPerson(firstName?: string, options?: { positionId?: number; labels?: number[] }): Promise<number>;
  expectError(answer: LightMyRequestResponse, status: number, error: string, message?: RegExp): void;
  /** The planner's change feed of the first company after a cursor, every page. */
  feed(after?: string): Promise<FeedEvent[]>;
  /** The planner's database as its owner, for what no route answers; opened on first use. */
  plannerDb(): Promise<DataSource>;
  close(): Promise<void>;
}

export interface BoardOptions {
  /** The planner's environment beyond the harness's own (e.g. EVENT_STREAM_CHECK_SECONDS). */
  plannerEnv?: Record<string, string>;
}

export async function startBoard(companyNames: string[], options: BoardOptions = {}): Promise<Board> {
  // Each calls the other: main-api's forecasts read the planner's planned hours, on a port chosen first.
  const plannerPort = await freePort();
  const main = await startMainApiTestApp(companyNames, { PLANNER_URL: `http://127.0.0.1:${plannerPort}` });
  const mainApiUrl = await main.listen();
  const planner = await startTestService({
    definition: plannerService,
    envClass: PlannerEnv,
    dataSourceOptions: plannerOwnerDataSourceOptions,
    env: {
      MAIN_API_URL: mainApiUrl,
      MAIN_API_TIMEOUT_MS: '20000',
      MAIN_API_BREAKER_THRESHOLD: '1000',
      ...options.plannerEnv,
    },
  });
  await planner.app.listen({ port: plannerPort, host: '127.0.0.1' });
  const companyId = main.companies[0].companyId;
  const bossId = main.companies[0].userId;
  let people = 0;
  let plannerDb: Promise<DataSource> | undefined;
  const tokenOf = (company: number, userId: number, roleId = 1) =>
    `Bearer ${signTestToken({ keys: main.keys, companyId: company, roleId, subject: `user:${userId}` })}`;
  const call: Board['call'] = (method, url, body, headers = {}) =>
    planner.app.inject({
      method,
      url,
      headers: { authorization: tokenOf(companyId, bossId), ...headers },
      ...(body ? { payload: body } : {}),
    });
  const ok = async <T>(response: Promise<LightMyRequestResponse>, status = 200): Promise<T> => {
    const answer = await response;
    if (answer.statusCode !== status) {
      // The body says why: a bare status mismatch would not.
      throw new Error(`expected ${status}, got ${answer.statusCode}: ${answer.body}`);
    }
    return answer.json<T>();
  };
  const created = async (response: Promise<LightMyRequestResponse>) =>
    (await ok<{ id: number }>(response, 201)).id;
  const clientId = await created(main.call('POST', '/clients', { name: `${companyNames[0]} client` }));
  const board: Board = {
    main,
    planner,
    plannerUrl: `http://127.0.0.1:${plannerPort}`,
    companyId,
    bossId,
    clientId,
    tokenOf,
    call,
    ok,
    created,
    newProject: (name) => created(main.call('POST', '/projects', { name, client_id: clientId })),
    async newPerson(firstName = 'Person', options = {}) {
      people += 1;
      const id = await created(
        main.call('POST', '/users', {
          first_name: firstName,
          last_name: 'Board',
          email: `${firstName.toLowerCase()}${people}@board.test`,
          role_id: 4,
          ...(options.positionId !== undefined && { user_position_id: options.positionId }),
          ...(options.labels && { labels: options.labels }),
        }),
      );
      expect((await main.call('PUT', `/working-time/users/${id}`, { entries: FULL_WEEK })).statusCode).toBe(
        200,
      );
      return id;
    },
    expectError(answer, status, error, message) {
      expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({
        status,
        body: { error, ...(message ? { message: expect.stringMatching(message) as unknown } : {}) },
      });
    },
    async feed(after = '0') {
      const events: FeedEvent[] = [];
      for (let cursor = after; ;) {
        const page = await ok<{ data: FeedEvent[]; next_cursor: string }>(
          call('GET', `/v2/events?after=${cursor}&limit=500`),
        );
        events.push(...page.data);
        if (page.data.length === 0) {
          return events;
        }
        cursor = page.next_cursor;
      }
    },
    plannerDb() {
      plannerDb ??= new DataSource(plannerOwnerDataSourceOptions(planner.env)).initialize();
      return plannerDb;
    },
    async close() {
      // One that never opened has nothing to close; the services are closed all the same.
      await plannerDb?.then(
        (db) => db.destroy(),
        () => undefined,
      );
      await planner.close();
      await main.close();
    },
  };
  return board;
}

/** A port nothing listens on now (the OS's choice), for a service started later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
