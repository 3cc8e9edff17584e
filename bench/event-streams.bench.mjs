// The change stream to browsers (issue 41) at the size of its target: 1,000 open Server-Sent Events
// streams on ONE main-api replica (10 per company, 100 companies), then 50 changes per second spread
// across the companies. Builds nothing itself:
//
//   npx nx run-many -t build -p main-api planner integrations && node bench/event-streams.bench.mjs
//   node bench/event-streams.bench.mjs [companies] [streams per company] [changes per second] [seconds]
//
// BENCH_STREAM_LOGINS=company: every stream of a company is the same login (one user), instead of one
// user per stream (a board watched by ten people). main-api checks all of a replica's logins in one
// statement per EVENT_STREAM_CHECK_SECONDS (before b7eb664: one statement per login, so the idle cost
// depended on it).
//
// Phases, each on the same replica:
//   1. at rest without streams: the database transactions main-api commits in SECONDS (the baseline);
//   2. the load without streams (CHANGES_PER_SECOND renames of clients through PUT /v1/clients/{id}):
//      main-api's CPU per change with nobody listening; it also warms main-api before its RSS is read;
//   3. the streams opened, each through its own ticket (POST /v1/events/stream-tickets, then
//      GET /v1/events/stream?ticket=, read with node:http as EventSource would): RSS before and after;
//   4. at rest with the streams: the transactions again; (4 − 1) per stream per minute is what an idle
//      stream costs;
//   5. the load with the streams: for each event on each stream, the time from its change's commit to
//      its arrival here; events missing or duplicated, by cursor, on every stream; main-api's CPU per
//      delivered event; RSS after.
//
// Transactions are `xact_commit` of pg_stat_database for the scratch database, read from a connection
// to another database so the reading is not counted: every transaction any backend of the database
// committed (main-api's pool and its LISTEN connection; autovacuum too). A lone scoped read of
// main-api (its set_config and the statement sent together) is one transaction, so at rest this is
// the statements main-api sends. Backends report their counts when they go idle, up to 10 s late
// (PostgreSQL 15), so the windows at rest are placed halfway between two of main-api's login-check
// rounds (every EVENT_STREAM_CHECK_SECONDS from its start), which then fall wholly inside them.
//
// stdout: the JSON; stderr: progress and, at the end, a markdown table.
import { request as httpRequest, Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  adminUrl,
  cpuSeconds,
  postgresCpuSeconds,
  postgresCpuSpent,
  rssMiB,
  runCommand,
  scratchDatabase,
  signingKey,
  sql,
  startService,
} from './support.mjs';

const COMPANIES = Number(process.argv[2] ?? 100);
const STREAMS_PER_COMPANY = Number(process.argv[3] ?? 10);
const CHANGES_PER_SECOND = Number(process.argv[4] ?? 50);
const SECONDS = Number(process.argv[5] ?? 30);
const LOGINS = process.env.BENCH_STREAM_LOGINS === 'company' ? 'company' : 'stream';
const STREAMS = COMPANIES * STREAMS_PER_COMPANY;
const CLIENTS_PER_COMPANY = 5;
/** Changes under way at once: the load is open-loop at its rate, and never more than this. */
const MAX_IN_FLIGHT = 16;
/** Tickets asked for and streams opened at once. */
const OPENING_WIDTH = 16;
/** main-api's default (EVENT_STREAM_CHECK_SECONDS): the rounds the windows at rest fall between. */
const CHECK_SECONDS = 30;
const SETTLE_SECONDS = 5;
/** How long after the last change's answer the streams may take to get every event. */
const DRAIN_SECONDS = 15;
const TARGET_P99_MS = 250;

const say = (message) => process.stderr.write(`event-streams: ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** Milliseconds since the epoch, sub-millisecond: comparable with PostgreSQL's clock (same machine). */
const now = () => performance.timeOrigin + performance.now();
const round = (value, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

function percentiles(values) {
  if (values.length === 0) {
    return { count: 0 };
  }
  const sorted = Float64Array.from(values).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return {
    count: sorted.length,
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** One open stream, read as a browser's EventSource reads it (text/event-stream framing). */
class StreamReader {
  /** Each change event as it arrived: its cursor, when, and the event's occurred_at. */
  deliveries = [];
  heartbeats = 0;
  endedWith;
  closedByServer = false;
  #buffer = '';

  constructor(companyId, request, response) {
    this.companyId = companyId;
    this.request = request;
    response.setEncoding('utf8');
    response.on('data', (chunk) => {
      const arrivedAt = now();
      this.#buffer += chunk;
      let end;
      while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
        this.#take(this.#buffer.slice(0, end), arrivedAt);
        this.#buffer = this.#buffer.slice(end + 2);
      }
    });
    response.on('end', () => (this.closedByServer = true));
    response.on('error', () => undefined);
  }

  close() {
    this.request.destroy();
  }

  #take(block, arrivedAt) {
    let id;
    let event;
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.heartbeats += line.includes('heartbeat') ? 1 : 0;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') {
        id = value;
      } else if (field === 'event') {
        event = value;
      } else if (field === 'data') {
        data += data ? `\n${value}` : value;
      }
    }
    if (event === 'end' || event === 'gone') {
      this.endedWith = `${event} ${data}`;
    } else if (event === undefined && id !== undefined && data) {
      const change = JSON.parse(data);
      this.deliveries.push({
        cursor: id,
        arrivedAt,
        occurredAt: Date.parse(change.occurred_at),
      });
    }
  }
}

/** `POST` or `PUT` with the bearer token; the answer's JSON and when it arrived. */
async function call(url, method, token, body) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, answeredAt: now(), body: text ? JSON.parse(text) : undefined };
}

/** Opens the stream of a ticket; resolves once main-api has answered 200 and the headers. */
function openStream(baseUrl, streamUrl, companyId, agent) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${streamUrl}`,
      { agent, headers: { accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode === 200) {
          resolve(new StreamReader(companyId, request, response));
          return;
        }
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => reject(new Error(`the stream answered ${response.statusCode}: ${body}`)));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function inParallel(items, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++];
        await work(item);
      }
    }),
  );
}

/** Transactions committed so far by the backends of the database. */
async function databaseCounters(admin, databaseName) {
  // Outside a transaction, each read is fresh (stats_fetch_consistency keeps no snapshot across them).
  const {
    rows: [{ commits }],
  } = await admin.query(
    'SELECT xact_commit::bigint::text AS commits FROM pg_stat_database WHERE datname = $1',
    [databaseName],
  );
  return { commits: Number(commits) };
}

/** Per table of the scratch database: scans and row writes, to name what the transactions did. */
async function tableCounters(databaseUrl) {
  const { rows } = await sql(
    databaseUrl,
    `SELECT relname AS name, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans,
            n_tup_ins + n_tup_upd + n_tup_del AS writes
       FROM pg_stat_user_tables WHERE schemaname = 'main_api'`,
  );
  return new Map(rows.map((row) => [row.name, { scans: Number(row.scans), writes: Number(row.writes) }]));
}

function tableDifference(before, after) {
  const changed = {};
  for (const [name, counts] of after) {
    const earlier = before.get(name) ?? { scans: 0, writes: 0 };
    const scans = counts.scans - earlier.scans;
    const writes = counts.writes - earlier.writes;
    if (scans > 0 || writes > 0) {
      changed[name] = { scans, writes };
    }
  }
  return changed;
}

/**
 * Waits until the middle of the gap between two of main-api's login-check rounds, which run every
 * CHECK_SECONDS since it started: a window of CHECK_SECONDS from there holds exactly one round, with
 * half a period on either side for the backends to report it.
 */
async function untilBetweenChecks(startedAt) {
  const period = CHECK_SECONDS * 1000;
  const sinceStart = now() - startedAt;
  const phase = sinceStart % period;
  const wait = (period / 2 - phase + period) % period;
  await sleep(wait < 2000 ? wait + period : wait);
}

/** SECONDS at rest: main-api's transactions, which tables they touched, and `counted()` meanwhile. */
async function atRest(admin, databaseUrl, databaseName, startedAt, counted = () => 0) {
  await untilBetweenChecks(startedAt);
  const tablesBefore = await tableCounters(databaseUrl);
  // That read was a transaction of the database: reported when its connection closed, before the window.
  await sleep(1000);
  const before = await databaseCounters(admin, databaseName);
  const countedBefore = counted();
  await sleep(SECONDS * 1000);
  const after = await databaseCounters(admin, databaseName);
  const countedDuring = counted() - countedBefore;
  const tablesAfter = await tableCounters(databaseUrl);
  return {
    transactions: after.commits - before.commits,
    counted: countedDuring,
    tables: tableDifference(tablesBefore, tablesAfter),
  };
}

/**
 * CHANGES_PER_SECOND renames for SECONDS, open-loop: change i is due at i / rate seconds and starts
 * then unless MAX_IN_FLIGHT are under way (it then starts late, counted). Change i goes to company
 * i mod COMPANIES, to its clients in turn; two changes of one client never overlap, so a client's
 * events come in the order its changes were sent.
 */
async function drive(mainApi, companies) {
  const total = CHANGES_PER_SECOND * SECONDS;
  const interval = 1000 / CHANGES_PER_SECOND;
  const changes = [];
  const lastOfClient = new Map();
  let inFlight = 0;
  let late = 0;
  const freed = [];
  const started = now();
  const pending = [];
  for (let i = 0; i < total; i += 1) {
    const due = started + i * interval;
    await sleep(due - now());
    while (inFlight >= MAX_IN_FLIGHT) {
      await new Promise((resolve) => freed.push(resolve));
    }
    if (now() - due > interval) {
      late += 1;
    }
    const company = companies[i % companies.length];
    const clientId = company.clients[Math.floor(i / companies.length) % company.clients.length];
    const change = { index: i, companyId: company.id, clientId, sentAt: 0, answeredAt: 0, status: 0 };
    changes.push(change);
    inFlight += 1;
    const previous = lastOfClient.get(clientId) ?? Promise.resolve();
    const done = previous
      .then(async () => {
        change.sentAt = now();
        const answer = await call(`${mainApi.url}/v1/clients/${clientId}`, 'PUT', company.writerToken, {
          name: `Client ${clientId} renamed ${i}`,
        });
        change.status = answer.status;
        change.answeredAt = answer.answeredAt;
      })
      .catch(() => (change.status = -1))
      .finally(() => {
        inFlight -= 1;
        freed.shift()?.();
      });
    lastOfClient.set(clientId, done);
    pending.push(done);
  }
  await Promise.all(pending);
  const ended = now();
  const answered = changes.filter((change) => change.status === 200);
  return {
    changes,
    answered,
    late,
    seconds: (ended - started) / 1000,
    answerMs: percentiles(answered.map((change) => change.answeredAt - change.sentAt)),
  };
}

/** What main-api's /metrics says of the streams (the hub's own counters). */
async function streamMetrics(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name) => {
    const lines = [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))];
    return lines.length ? lines.reduce((sum, [, number]) => sum + Number(number), 0) : null;
  };
  return {
    event_streams_open: value('event_streams_open'),
    event_stream_events_sent_total: value('event_stream_events_sent_total'),
    event_stream_slow_consumers_dropped_total: value('event_stream_slow_consumers_dropped_total'),
    event_stream_refused_total: value('event_stream_refused_total'),
  };
}

const database = await scratchDatabase('bench_event_streams');
const databaseName = new URL(database.url).pathname.slice(1);
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const readers = [];
let mainApi;
try {
  const key = signingKey();
  // error: main-api's startup warnings (a bench key, an issuer that is not a URL) would land in the JSON on stdout.
  const common = { DATABASE_URL: database.url, LOG_LEVEL: 'error', NODE_ENV: 'production' };
  await runCommand('main-api', 'migrate.js', common);

  say(`seeding ${COMPANIES} companies, ${STREAMS_PER_COMPANY} users and ${CLIENTS_PER_COMPANY} clients each`);
  // The first user of each company is its C-Level (it renames the clients); the others collaborators.
  const { rows: companyRows } = await sql(
    database.url,
    `INSERT INTO main_api.companies (name) SELECT 'Streams ' || g FROM generate_series(1, $1::int) g RETURNING id`,
    [COMPANIES],
  );
  const { rows: userRows } = await sql(
    database.url,
    `INSERT INTO main_api.users (company_id, email, first_name, last_name, role_id)
     SELECT c.id, 'u' || c.id || '-' || n || '@streams.bench', 'U' || n, 'Streams', CASE WHEN n = 1 THEN 1 ELSE 4 END
       FROM unnest($1::int[]) AS c (id), generate_series(1, $2::int) n
     RETURNING id, company_id, role_id`,
    [companyRows.map((row) => row.id), STREAMS_PER_COMPANY],
  );
  const { rows: clientRows } = await sql(
    database.url,
    `INSERT INTO main_api.clients (company_id, name)
     SELECT c.id, 'Client ' || n FROM unnest($1::int[]) AS c (id), generate_series(1, $2::int) n
     RETURNING id, company_id`,
    [companyRows.map((row) => row.id), CLIENTS_PER_COMPANY],
  );
  const companies = companyRows.map(({ id }) => {
    const users = userRows.filter((user) => user.company_id === id).sort((a, b) => a.id - b.id);
    const tokenOf = (user) => key.token({ companyId: id, roleId: user.role_id, subject: `user:${user.id}` });
    const writerToken = tokenOf(users[0]);
    return {
      id,
      writerToken,
      clients: clientRows.filter((client) => client.company_id === id).map((client) => client.id),
      streamTokens: users.map((user) => (LOGINS === 'company' ? writerToken : tokenOf(user))),
    };
  });
  await sql(database.url, 'ANALYZE');

  mainApi = await startService('main-api', {
    ...common,
    JWT_PRIVATE_KEY: key.privatePem,
    EVENT_STREAMS_PER_COMPANY: String(STREAMS_PER_COMPANY * 2),
    EVENT_STREAMS_PER_REPLICA: String(STREAMS * 2),
  });
  const startedAt = now();
  await sleep(SETTLE_SECONDS * 1000);

  say(`phase 1: ${SECONDS} s at rest, no streams`);
  const restWithout = await atRest(admin, database.url, databaseName, startedAt);

  say(`phase 2: ${CHANGES_PER_SECOND} changes/s for ${SECONDS} s, no streams`);
  const cpuBeforeAlone = await cpuSeconds(mainApi.pid);
  const pgBeforeAlone = await postgresCpuSeconds(adminUrl, databaseName);
  const alone = await drive(mainApi, companies);
  const cpuAlone = (await cpuSeconds(mainApi.pid)) - cpuBeforeAlone;
  const pgAlone = postgresCpuSpent(pgBeforeAlone, await postgresCpuSeconds(adminUrl, databaseName));
  await sleep(SETTLE_SECONDS * 1000);
  const rssBefore = await rssMiB(mainApi.pid);

  say(`phase 3: opening ${STREAMS} streams (${STREAMS_PER_COMPANY} per company), each with its own ticket`);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const openings = companies.flatMap((company) => company.streamTokens.map((token) => ({ company, token })));
  const openingStarted = now();
  const ticketMs = [];
  const openMs = [];
  await inParallel(openings, OPENING_WIDTH, async ({ company, token }) => {
    const asked = now();
    const ticket = await call(`${mainApi.url}/v1/events/stream-tickets`, 'POST', token, {});
    if (ticket.status !== 201) {
      throw new Error(`ticket for company ${company.id}: ${ticket.status} ${JSON.stringify(ticket.body)}`);
    }
    ticketMs.push(ticket.answeredAt - asked);
    const opening = now();
    readers.push(await openStream(mainApi.url, ticket.body.stream_url, company.id, agent));
    openMs.push(now() - opening);
  });
  const openingSeconds = (now() - openingStarted) / 1000;
  await sleep(SETTLE_SECONDS * 1000);
  const rssOpen = await rssMiB(mainApi.pid);
  const metricsOpen = await streamMetrics(mainApi.url);

  say(`phase 4: ${SECONDS} s at rest with ${readers.length} streams open`);
  const restWith = await atRest(admin, database.url, databaseName, startedAt, () =>
    readers.reduce((sum, reader) => sum + reader.heartbeats, 0),
  );
  const perStreamPerMinute =
    (restWith.transactions - restWithout.transactions) / readers.length / (SECONDS / 60);

  say(`phase 5: ${CHANGES_PER_SECOND} changes/s for ${SECONDS} s, ${readers.length} streams`);
  const {
    rows: [{ cursor: cursorBefore }],
  } = await sql(database.url, 'SELECT coalesce(max(cursor), 0)::text AS cursor FROM main_api.change_events');
  const deliveredBefore = readers.reduce((sum, reader) => sum + reader.deliveries.length, 0);
  const cpuBefore = await cpuSeconds(mainApi.pid);
  const pgBefore = await postgresCpuSeconds(adminUrl, databaseName);
  const loaded = await drive(mainApi, companies);
  // Every change has committed (its answer came): the events each company's streams must get.
  // Ordered by the column, not by the text alias (as text, '10001' comes before '7501').
  const { rows: events } = await sql(
    database.url,
    `SELECT cursor::text AS cursor, company_id, entity, entity_id FROM main_api.change_events
      WHERE cursor > $1::bigint ORDER BY change_events.cursor`,
    [cursorBefore],
  );
  const expectedByCompany = new Map();
  for (const event of events) {
    expectedByCompany.set(event.company_id, [
      ...(expectedByCompany.get(event.company_id) ?? []),
      event.cursor,
    ]);
  }
  const received = (reader) =>
    reader.deliveries.filter((delivery) => BigInt(delivery.cursor) > BigInt(cursorBefore));
  const drainStarted = now();
  while (
    now() - drainStarted < DRAIN_SECONDS * 1000 &&
    readers.some((reader) => received(reader).length < (expectedByCompany.get(reader.companyId)?.length ?? 0))
  ) {
    await sleep(100);
  }
  const drainSeconds = (now() - drainStarted) / 1000;
  const cpuLoaded = (await cpuSeconds(mainApi.pid)) - cpuBefore;
  const pgLoaded = postgresCpuSpent(pgBefore, await postgresCpuSeconds(adminUrl, databaseName));
  const rssAfter = await rssMiB(mainApi.pid);
  const metricsAfter = await streamMetrics(mainApi.url);

  // A client's changes never overlapped, so its events in cursor order are its changes in the order sent.
  const changeOfCursor = new Map();
  const changesOfClient = new Map();
  for (const change of loaded.answered) {
    changesOfClient.set(change.clientId, [...(changesOfClient.get(change.clientId) ?? []), change]);
  }
  const eventsOfClient = new Map();
  for (const event of events.filter((event) => event.entity === 'clients')) {
    eventsOfClient.set(event.entity_id, [...(eventsOfClient.get(event.entity_id) ?? []), event.cursor]);
  }
  let unmatchedClients = 0;
  for (const [clientId, cursors] of eventsOfClient) {
    const sent = changesOfClient.get(clientId) ?? [];
    if (sent.length !== cursors.length) {
      unmatchedClients += 1;
      continue;
    }
    cursors.forEach((cursor, index) => changeOfCursor.set(cursor, sent[index]));
  }

  const fromOccurred = [];
  const fromAnswer = [];
  const fromSent = [];
  let missing = 0;
  let duplicated = 0;
  let unexpected = 0;
  let outOfOrder = 0;
  let streamsIncomplete = 0;
  for (const reader of readers) {
    const got = received(reader);
    const expected = new Set(expectedByCompany.get(reader.companyId) ?? []);
    const seen = new Set();
    let last = -1n;
    for (const delivery of got) {
      const cursor = BigInt(delivery.cursor);
      if (cursor <= last) {
        outOfOrder += 1;
      }
      last = cursor > last ? cursor : last;
      if (seen.has(delivery.cursor)) {
        duplicated += 1;
        continue;
      }
      seen.add(delivery.cursor);
      if (!expected.has(delivery.cursor)) {
        unexpected += 1;
        continue;
      }
      fromOccurred.push(delivery.arrivedAt - delivery.occurredAt);
      const change = changeOfCursor.get(delivery.cursor);
      if (change) {
        fromAnswer.push(delivery.arrivedAt - change.answeredAt);
        fromSent.push(delivery.arrivedAt - change.sentAt);
      }
    }
    const lost = [...expected].filter((cursor) => !seen.has(cursor)).length;
    missing += lost;
    streamsIncomplete += lost > 0 ? 1 : 0;
  }
  const delivered = readers.reduce((sum, reader) => sum + reader.deliveries.length, 0) - deliveredBefore;
  const latency = percentiles(fromOccurred);

  const result = {
    machine: { cores: (await import('node:os')).cpus().length, node: process.version },
    companies: COMPANIES,
    streams_per_company: STREAMS_PER_COMPANY,
    logins: LOGINS === 'company' ? 'one per company' : 'one per stream',
    streams_open: readers.length,
    opening: {
      seconds: round(openingSeconds),
      width: OPENING_WIDTH,
      ticket_ms: percentiles(ticketMs),
      open_ms: percentiles(openMs),
    },
    rss_mib: {
      before_streams: rssBefore,
      with_streams_idle: rssOpen,
      after_load: rssAfter,
      growth_opening: rssOpen - rssBefore,
      growth_total: rssAfter - rssBefore,
      kib_per_stream_opening: round(((rssOpen - rssBefore) * 1024) / readers.length),
    },
    at_rest: {
      what: 'xact_commit of pg_stat_database (transactions of every backend of the scratch database)',
      seconds: SECONDS,
      transactions_without_streams: restWithout.transactions,
      transactions_with_streams: restWith.transactions,
      transactions_per_stream_per_minute: round(perStreamPerMinute, 3),
      tables_without_streams: restWithout.tables,
      tables_with_streams: restWith.tables,
      heartbeats_per_stream: round(restWith.counted / readers.length, 2),
    },
    load_without_streams: {
      changes_per_second_asked: CHANGES_PER_SECOND,
      changes: alone.changes.length,
      answered_200: alone.answered.length,
      started_late: alone.late,
      seconds: round(alone.seconds),
      put_ms: alone.answerMs,
      main_api_cpu_seconds: round(cpuAlone, 2),
      main_api_cpu_ms_per_change: round((cpuAlone * 1000) / alone.answered.length, 2),
      postgres_cpu_seconds: round(pgAlone, 2),
    },
    load_with_streams: {
      changes_per_second_asked: CHANGES_PER_SECOND,
      changes: loaded.changes.length,
      answered_200: loaded.answered.length,
      started_late: loaded.late,
      seconds: round(loaded.seconds),
      put_ms: loaded.answerMs,
      change_events: events.length,
      deliveries_expected: readers.reduce(
        (sum, reader) => sum + (expectedByCompany.get(reader.companyId)?.length ?? 0),
        0,
      ),
      delivered,
      missing,
      duplicated,
      unexpected,
      out_of_order: outOfOrder,
      streams_incomplete: streamsIncomplete,
      streams_ended_by_server: readers.filter((reader) => reader.closedByServer || reader.endedWith).length,
      drain_seconds: round(drainSeconds, 2),
      commit_to_delivery_ms: {
        from_occurred_at: latency,
        from_answer: percentiles(fromAnswer),
        from_request_sent: percentiles(fromSent),
        clients_unmatched: unmatchedClients,
      },
      target_p99_ms: TARGET_P99_MS,
      target_met:
        latency.p99 !== undefined && latency.p99 <= TARGET_P99_MS && missing === 0 && duplicated === 0,
      main_api_cpu_seconds: round(cpuLoaded, 2),
      main_api_cpu_ms_per_delivered_event: round((cpuLoaded * 1000) / delivered, 3),
      main_api_cpu_ms_per_delivered_event_beyond_the_writes: round(
        ((cpuLoaded - (cpuAlone * loaded.answered.length) / alone.answered.length) * 1000) / delivered,
        3,
      ),
      postgres_cpu_seconds: round(pgLoaded, 2),
      postgres_cpu_ms_per_delivered_event_beyond_the_writes: round(
        ((pgLoaded - (pgAlone * loaded.answered.length) / alone.answered.length) * 1000) / delivered,
        3,
      ),
    },
    metrics: { with_streams_idle: metricsOpen, after_load: metricsAfter },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

  const l = result.load_with_streams;
  const c = l.commit_to_delivery_ms;
  const row = (name, value) => `| ${name} | ${value} |`;
  say(
    [
      '',
      `| ${STREAMS.toLocaleString('en')} streams (${STREAMS_PER_COMPANY} × ${COMPANIES} companies, ${result.logins}), ${CHANGES_PER_SECOND} changes/s × ${SECONDS} s | |`,
      '| --- | --- |',
      row('opening (tickets + streams, 16 at a time)', `${result.opening.seconds} s`),
      row(
        'main-api RSS: before → streams open → after load',
        `${rssBefore} → ${rssOpen} → ${rssAfter} MiB (${result.rss_mib.kib_per_stream_opening} KiB per stream opened)`,
      ),
      row(
        `transactions at rest, ${SECONDS} s: without → with streams`,
        `${restWithout.transactions} → ${restWith.transactions} (${result.at_rest.transactions_per_stream_per_minute} per stream per minute)`,
      ),
      row(
        'changes answered 200',
        `${l.answered_200} of ${l.changes} (PUT p50 ${l.put_ms.p50} / p99 ${l.put_ms.p99} ms)`,
      ),
      row('events delivered / expected', `${l.delivered} / ${l.deliveries_expected}`),
      row('missing / duplicated / out of order', `${l.missing} / ${l.duplicated} / ${l.out_of_order}`),
      row(
        'occurred_at → delivery p50 / p95 / p99 / max',
        `${c.from_occurred_at.p50} / ${c.from_occurred_at.p95} / ${c.from_occurred_at.p99} / ${c.from_occurred_at.max} ms (target p99 ≤ ${TARGET_P99_MS})`,
      ),
      row(
        'answer → delivery p50 / p95 / p99 / max',
        `${c.from_answer.p50} / ${c.from_answer.p95} / ${c.from_answer.p99} / ${c.from_answer.max} ms`,
      ),
      row(
        'main-api CPU per delivered event (all / beyond the writes)',
        `${l.main_api_cpu_ms_per_delivered_event} / ${l.main_api_cpu_ms_per_delivered_event_beyond_the_writes} ms`,
      ),
      row(
        'PostgreSQL CPU per delivered event beyond the writes',
        `${l.postgres_cpu_ms_per_delivered_event_beyond_the_writes} ms`,
      ),
      row(
        'main-api CPU per change without streams',
        `${result.load_without_streams.main_api_cpu_ms_per_change} ms`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  for (const reader of readers) {
    reader.close();
  }
  await mainApi?.stop();
  await admin.end();
  await database.drop();
}
