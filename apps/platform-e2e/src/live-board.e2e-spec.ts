import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createTestDatabase, generateTestKeyPair, type TestDatabase } from '@platform/testing';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { LiveBoardApp, type BoardEvent, type Booking } from './live-board-app';
import { migrateAll, provision, RunningService, stopAll } from './service-process';
import { SeverableProxy, type ProxiedRequest } from './severable-proxy';

/** Generous: a cold Chromium, and services answering under a parallel `npm test`. */
const WAIT = { timeout: 20_000 };
/** The planner checks the stream's login every second here; main-api may cache its answer briefly. */
const REVOCATION_WAIT = { timeout: 45_000 };

/** Debian's chromium (CI installs it in .ci/run), or CHROMIUM_PATH. Never skipped when missing. */
function chromiumPath(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? '').split(delimiter).map((directory) => join(directory, 'chromium'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    `The live-board test needs Chromium and found no executable ${process.env.CHROMIUM_PATH ?? 'chromium on PATH'}: install it with ` +
      '`apt-get install -y chromium` (Debian; .ci/run does it in CI) or set CHROMIUM_PATH to the binary.',
  );
}

/** What `npm run provision` prints (the fields this test reads). */
interface Provisioned {
  companyId: number;
  email: string;
  password: string;
}

interface Login {
  access_token: string;
  refresh_token: string;
}

type FeedEvent = { cursor: string; entity: string; kind: string; id: string };

/** The board's `window`, as the functions run in the page by waitForFunction and evaluate see it. */
interface BoardWindow {
  events: BoardEvent[];
  source: { readyState: number };
  following: Promise<string>;
  book(allocation: object): Promise<Booking>;
}
/** `EventSource.CONNECTING` and `.CLOSED` (this file is typed without the DOM). */
const CONNECTING = 0;
const CLOSED = 2;

/**
 * Issue 41's "done when", in a real browser: two people on one planning board, each in a browser
 * context of their own, follow the planner's change stream through `EventSource` as the README's
 * snippet does. The steps are one story (a booking seen live, a dropped connection resumed, a
 * revoked login cut off), so each test starts where the one before ended.
 */
describe('a live planning board in two browsers (planner change stream over EventSource)', () => {
  const keys = generateTestKeyPair();
  const changeOriginKey = randomBytes(32).toString('base64');
  let database: TestDatabase;
  let services: RunningService[] = [];
  let mainApi: RunningService;
  let planner: RunningService;
  let boardApp: LiveBoardApp;
  /** Between B's page and the planner, for its EventSource only: the connection the test cuts. */
  let bStreamProxy: SeverableProxy;
  let browser: Browser;
  let boardA: Page;
  let boardB: Page;
  let bLogin: Login;
  let bossToken: string;
  let projectId: number;
  let personId: number;
  /** The Monday of the next booking: each booking takes a week of its own. */
  let week = Date.UTC(2027, 0, 4);

  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const login = async (username: string, password: string): Promise<Login> => {
    const response = await fetch(
      `${mainApi.url}/v1/oauth/token`,
      form({ grant_type: 'password', username, password }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as Login;
  };
  const asBoss = async <Created>(method: string, path: string, body: object): Promise<Created> => {
    const response = await fetch(`${mainApi.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${bossToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect({ path, status: response.status }).toEqual({ path, status: method === 'POST' ? 201 : 200 });
    return (await response.json()) as Created;
  };

  /** The planner's feed (GET /v2/events) after `after`, every page, as an integrator polls it. */
  const feedAfter = async (after: string): Promise<FeedEvent[]> => {
    const events: FeedEvent[] = [];
    for (let cursor = after; ;) {
      const response = await fetch(`${planner.url}/v2/events?after=${cursor}&limit=1000`, {
        headers: { authorization: `Bearer ${bossToken}` },
      });
      expect(response.status).toBe(200);
      const page = (await response.json()) as { data: FeedEvent[]; next_cursor: string };
      events.push(...page.data);
      if (page.data.length === 0) {
        return events;
      }
      cursor = page.next_cursor;
    }
  };

  const eventsOf = (board: Page) => board.evaluate(() => (globalThis as unknown as BoardWindow).events);
  const changesOf = async (board: Page) =>
    (await eventsOf(board)).flatMap((event) => (event.type === 'change' ? [event] : []));
  const waitForChange = (board: Page, id: string) =>
    board.waitForFunction(
      (allocation: string) =>
        (globalThis as unknown as BoardWindow).events.some(
          (event) => event.type === 'change' && event.data.id === allocation,
        ),
      WAIT,
      id,
    );
  /** A booking made by the page itself (fetch, cross-origin), a week of its own for the person. */
  const bookIn = async (board: Page): Promise<string> => {
    const from = new Date(week).toISOString().slice(0, 10);
    const to = new Date(week + 4 * 86_400_000).toISOString().slice(0, 10);
    week += 7 * 86_400_000;
    const booking = await board.evaluate(
      (allocation) => (globalThis as unknown as BoardWindow).book(allocation),
      { user_id: personId, project_id: projectId, from, to, hours_per_day: 2 },
    );
    expect(booking).toMatchObject({ status: 201, body: { id: expect.any(String) } });
    return booking.body.id as string;
  };
  /** The stream requests B's browser sent through the proxy (its reconnects among them). */
  const bStreamRequests = (): ProxiedRequest[] =>
    bStreamProxy.requests.filter((request) => request.requestLine.startsWith('GET /v2/events/stream?'));

  beforeAll(async () => {
    const executablePath = chromiumPath();
    database = await createTestDatabase('live_board');
    await migrateAll(database.url);
    boardApp = await LiveBoardApp.start();
    const shared = {
      DATABASE_URL: database.url,
      CORS_ALLOWED_ORIGINS: boardApp.origin,
      CHANGE_ORIGIN_KEY: changeOriginKey,
    };
    // A revoked login shows on the streams within a second or two, not the default 30.
    const streamChecks = { EVENT_STREAM_CHECK_SECONDS: '1' };
    mainApi = await RunningService.start('main-api', {
      ...shared,
      ...streamChecks,
      JWT_PRIVATE_KEY: keys.privatePem,
    });
    services.push(mainApi);
    await mainApi.waitUntilReady();
    planner = await RunningService.start('planner', {
      ...shared,
      ...streamChecks,
      MAIN_API_URL: mainApi.url,
    });
    services.push(planner);

    const company = await provision<Provisioned>(database.url, ['--company', 'Live Board Agency']);
    bossToken = (await login(company.email, company.password)).access_token;
    const client = await asBoss<{ id: number }>('POST', '/clients', { name: 'Live client' });
    projectId = (
      await asBoss<{ id: number }>('POST', '/projects', { name: 'Live project', client_id: client.id })
    ).id;
    const newUser = async (name: string, roleId: number) => {
      const email = `${name}@live-board.test`;
      const password = `pw-${randomBytes(8).toString('hex')}`;
      const user = await asBoss<{ id: number }>('POST', '/users', {
        first_name: name,
        last_name: 'Board',
        email,
        role_id: roleId,
        password,
      });
      return { id: user.id, email, password };
    };
    const person = await newUser('dee', 4);
    personId = person.id;
    await asBoss('PUT', `/working-time/users/${personId}`, {
      entries: [1, 2, 3, 4, 5].map((day) => ({
        day_of_week: day,
        daily_hours: 8,
        start_at: '09:00:00',
        end_at: '17:00:00',
      })),
    });
    const planners = [await newUser('ann', 2), await newUser('bob', 2)];
    const [aLogin, bLoggedIn] = await Promise.all(planners.map((user) => login(user.email, user.password)));
    bLogin = bLoggedIn;

    await planner.waitUntilReady();
    bStreamProxy = await SeverableProxy.start(planner.port);
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      // Chromium refuses to run as root with its sandbox (CI containers run as root).
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    const openBoard = async (seat: string, accessToken: string, streamBaseUrl: string) => {
      const context = await browser.createBrowserContext();
      const board = await context.newPage();
      await board.goto(
        boardApp.boardFor(seat, { accessToken, plannerUrl: planner.url, streamBaseUrl }),
        WAIT,
      );
      expect(await board.evaluate(() => (globalThis as unknown as BoardWindow).following)).toBe('following');
      await board.waitForFunction(
        () => (globalThis as unknown as BoardWindow).events.some((event) => event.type === 'open'),
        WAIT,
      );
      return board;
    };
    boardA = await openBoard('a', aLogin.access_token, planner.url);
    boardB = await openBoard('b', bLogin.access_token, bStreamProxy.url);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await bStreamProxy?.close();
    await boardApp?.close();
    try {
      // Fails the file with every answer that differed from the services' documents.
      await stopAll(services);
    } finally {
      services = [];
      await database?.drop();
    }
  });

  it('shows a booking made in one browser in the other, through EventSource, with the feed cursor as id', async () => {
    const booked = await bookIn(boardA);

    await waitForChange(boardB, booked);
    await waitForChange(boardA, booked);
    const [change] = await changesOf(boardB);
    expect(change.data).toMatchObject({ entity: 'allocations', kind: 'created', id: booked });
    expect(change.lastEventId).toBe(change.data.cursor);
    expect(await boardB.evaluate('document.getElementById("changes").textContent')).toContain(
      `allocations created ${booked}`,
    );
  });

  it("resumes B's stream after its connection is cut: each change missed meanwhile arrives exactly once", async () => {
    const seenBefore = await changesOf(boardB);
    const lastSeen = seenBefore[seenBefore.length - 1].lastEventId;
    const eventsBefore = (await eventsOf(boardB)).length;

    // The connection dies under the stream, and B's reconnects fail while three bookings are made.
    bStreamProxy.refuse = true;
    expect(bStreamProxy.cut()).toBe(1);
    await boardB.waitForFunction(
      (from: number, connecting: number) =>
        (globalThis as unknown as BoardWindow).events
          .slice(from)
          .some((event) => event.type === 'error' && event.readyState === connecting),
      WAIT,
      eventsBefore,
      CONNECTING,
    );
    const missed = [await bookIn(boardA), await bookIn(boardA), await bookIn(boardA)];
    await waitForChange(boardA, missed[2]);
    expect((await changesOf(boardB)).length).toBe(seenBefore.length);

    // B's browser gets through again on its own, and one booking after that shows it is live.
    bStreamProxy.refuse = false;
    const after = await bookIn(boardA);
    await waitForChange(boardB, after);

    const feed = await feedAfter(lastSeen);
    expect(feed.map((event) => event.id)).toEqual([...missed, after]);
    const received = (await changesOf(boardB)).slice(seenBefore.length);
    expect(received.map((change) => change.lastEventId)).toEqual(feed.map((event) => event.cursor));
    expect(received.map((change) => change.data)).toEqual(feed);
    // The reconnect was EventSource's own: the same stream URL, with the last id it had.
    const [first, ...reconnects] = bStreamRequests();
    expect(first.headers['last-event-id']).toBeUndefined();
    expect(reconnects).toEqual([
      expect.objectContaining({
        requestLine: first.requestLine,
        headers: expect.objectContaining({ 'last-event-id': lastSeen }),
        status: 200,
      }),
    ]);
    expect((await eventsOf(boardB)).filter((event) => event.type === 'open')).toHaveLength(2);
  });

  it("ends B's stream when B's login is revoked, and the browser's reconnect is refused for good", async () => {
    const received = await changesOf(boardB);

    const revoked = await fetch(
      `${mainApi.url}/v1/oauth/revoke`,
      form({ token: bLogin.refresh_token, token_type_hint: 'refresh_token' }),
    );
    expect(revoked.status).toBe(200);

    await boardB.waitForFunction(
      (closed: number) => (globalThis as unknown as BoardWindow).source.readyState === closed,
      REVOCATION_WAIT,
      CLOSED,
    );
    const ended = (await eventsOf(boardB)).filter((event) => event.type === 'end');
    expect(ended).toEqual([{ type: 'end', data: { reason: 'revoked' } }]);
    const lastReconnect = bStreamRequests().at(-1);
    expect(lastReconnect).toMatchObject({
      headers: expect.objectContaining({ 'last-event-id': received[received.length - 1].lastEventId }),
      status: 401,
    });

    // A's login is another: A books on, sees it, and nothing reaches B any more.
    const later = await bookIn(boardA);
    await waitForChange(boardA, later);
    expect(await changesOf(boardB)).toEqual(received);
    const aEvents = await eventsOf(boardA);
    expect(aEvents.filter((event) => event.type !== 'change')).toEqual([{ type: 'open' }]);
    const aCursors = aEvents.flatMap((event) => (event.type === 'change' ? [event.lastEventId] : []));
    expect(aCursors).toEqual((await feedAfter('0')).map((event) => event.cursor));
  });
});
