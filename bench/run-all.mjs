// `npm run bench`: the platform's benchmarks in one run (issue 9). Builds nothing itself (the npm
// script builds first); runs the built services and a minimal Fastify + pg baseline against a
// scratch database on BENCH_DATABASE_URL, under autocannon, and writes docs/performance.md.
// Environment: BENCH_SECONDS (10 per round), BENCH_ROUNDS (5), BENCH_CONNECTIONS (32),
// BENCH_OTHER_ALLOCATIONS (1000000), BENCH_ONLY (a regular expression: only the cases whose names
// match run, and docs/performance.md is left as it is).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import {
  freePort,
  insertOtherAllocations,
  root,
  rssMiB,
  runCommand,
  scratchDatabase,
  SERVICE_NODE_FLAGS,
  signingKey,
  sql,
  startService,
} from './support.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// Five rounds: a p99 from one 10 s round of a slow read rests on its ten worst requests.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARM_UP_SECONDS = 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const OTHER_ALLOCATIONS = Number(process.env.BENCH_OTHER_ALLOCATIONS ?? 1_000_000);
const PROJECT_SCALES = [1_000, 10_000, 100_000];
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const wanted = (name) => !ONLY || ONLY.test(name);
// The planner v2 ledger's writers (issue 37): people booked, one week each per request.
const LEDGER_PEOPLE = 200;
// The availability read (issue 38): people with a year of bookings, holidays, leaves and a change
// of schedule, read for the whole year day by day; and the time as the number of people grows.
const AVAILABILITY_PEOPLE = 200;
const AVAILABILITY_GROWTH = [10, 50, 100, 200];
// The project forecast (issue 40): a project with two years of approved daily time from 30 people
// and a year of their bookings ahead.
const FORECAST_PEOPLE = 30;
const LIST_PATH = `/v1/projects?perPage=50&filters=${encodeURIComponent('{"status":"active"}')}`;
// Cases whose seeding is their own: it runs only when one of them is wanted.
const CASE = {
  projectsList: `GET ${LIST_PATH} (100,000 projects)`,
  projectDetail: 'GET /v1/projects/{id}',
  ledgerWrite: `planner POST /v2/allocations (reject, ${LEDGER_PEOPLE} people)`,
  ledgerList: `planner GET /v2/allocations?user_ids=<50>&include=days (one quarter, ${OTHER_ALLOCATIONS.toLocaleString('en')} other allocations)`,
  availability: `planner GET /v2/availability?team_id=<${AVAILABILITY_PEOPLE} people>&from=2027-01-01&to=2027-12-31 (by day, ${OTHER_ALLOCATIONS.toLocaleString('en')} other allocations)`,
  forecast: `GET /v1/projects/{id}/forecast?granularity=month (2 years of daily time from ${FORECAST_PEOPLE} people, a year of their planned work)`,
};

const database = await scratchDatabase('bench_all');
const running = [];
const say = (text) => process.stderr.write(`bench: ${text}\n`);

async function load(options, duration = SECONDS) {
  const result = await autocannon({ connections: CONNECTIONS, duration, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Sections of docs/performance.md written by benches of their own, not by this run (the change feed
 * at rest, `bench/feed-idle.bench.mjs`): kept as they are, after this run's.
 */
const KEPT_SECTIONS = ['## Change feed at rest', '## Change streams (issue 41)'];
function keptSections(page) {
  if (!existsSync(page)) {
    return [];
  }
  const text = readFileSync(page, 'utf8');
  return KEPT_SECTIONS.flatMap((heading) => {
    const start = text.indexOf(`${heading}`);
    if (start < 0) {
      return [];
    }
    const next = text.indexOf('\n## ', start + heading.length);
    return [text.slice(start, next < 0 ? undefined : next + 1).trimEnd(), ''];
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Signatures per second of one process that only signs (bench/rs256-sign-rate.mjs). */
function signingRate(privatePem, seconds) {
  return new Promise((resolve, reject) => {
    let out = '';
    const child = spawn(process.execPath, [join(root, 'bench', 'rs256-sign-rate.mjs'), String(seconds)], {
      env: { ...process.env, BENCH_SIGNING_KEY: privatePem },
    });
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out).perSecond) : reject(new Error(`signing rate exited ${code}`)),
    );
  });
}

/** The median of each figure over the rounds (errors: their sum). */
function summarize(rounds) {
  return {
    rps: median(rounds.map((round) => round.rps)),
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    rounds: rounds.map((round) => round.rps),
  };
}

async function oneAtATime(url, headers, count = 30) {
  const timings = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await fetch(url, { headers }).then((response) => response.arrayBuffer());
    timings.push(performance.now() - started);
  }
  return +timings.sort((a, b) => a - b)[Math.floor(count / 2)].toFixed(1);
}

function startBaseline(port, companyId) {
  const child = spawn(
    process.execPath,
    [
      ...SERVICE_NODE_FLAGS,
      join(root, 'bench', 'baseline-server.mjs'),
      String(port),
      database.url,
      String(companyId),
    ],
    {
      stdio: 'inherit',
    },
  );
  running.push({
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  });
  return `http://127.0.0.1:${port}`;
}

try {
  const key = signingKey();
  const common = { DATABASE_URL: database.url, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  const changeOriginKey = randomBytes(32).toString('base64');
  const mainApiEnv = {
    ...common,
    JWT_PRIVATE_KEY: key.privatePem,
    CHANGE_ORIGIN_KEY: changeOriginKey,
  };
  for (const app of ['main-api', 'planner', 'integrations']) {
    await runCommand(app, 'migrate.js', common);
  }
  say('seeding main-api');
  const credentials = await new Promise((resolve, reject) => {
    let out = '';
    const child = spawn(
      process.execPath,
      [
        join(root, 'dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js'),
        '--company',
        'Bench',
      ],
      { env: { ...process.env, ...mainApiEnv } },
    );
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`provision exited ${code}`)),
    );
  });
  const { companyId } = credentials;
  await sql(
    database.url,
    'INSERT INTO main_api.clients (company_id, name) SELECT $1, $2 || g FROM generate_series(1, 200) g',
    [companyId, 'Client '],
  );
  let projects = 0;
  const seedProjects = async (total) => {
    await sql(
      database.url,
      `INSERT INTO main_api.projects (company_id, client_id, name, status, health)
       SELECT $1, c.id, 'Project ' || g || ' ' || md5(g::text), (ARRAY['active','finished','suspended'])[1 + g % 3], 1 + g % 4
         FROM generate_series($2::int, $3::int) g
         JOIN LATERAL (SELECT id FROM main_api.clients WHERE company_id = $1 ORDER BY id OFFSET (g % 200) LIMIT 1) c ON true`,
      [companyId, projects + 1, total],
    );
    projects = total;
    await sql(database.url, 'ANALYZE main_api.projects');
  };

  // main-api reads the planner's planned hours (forecasts), on a port chosen before either starts.
  const plannerPort = await freePort();
  const mainApi = await startService('main-api', {
    ...mainApiEnv,
    PLANNER_URL: `http://127.0.0.1:${plannerPort}`,
  });
  running.push(mainApi);
  const planner = await startService('planner', {
    ...common,
    MAIN_API_URL: mainApi.url,
    PORT: String(plannerPort),
  });
  running.push(planner);
  const integrations = await startService('integrations', {
    ...common,
    MAIN_API_URL: mainApi.url,
    INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CHANGE_ORIGIN_KEY: changeOriginKey,
  });
  running.push(integrations);
  const baseline = startBaseline(await freePort(), companyId);
  const token = key.token({ companyId, subject: `user:${credentials.userId}` });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = async (url, body, method = 'POST') => {
    const response = await fetch(url, { method, headers, body: JSON.stringify(body) });
    if (!response.ok) {
      throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
    }
    return response.json();
  };
  const memory = { idle: {}, loaded: {} };
  for (const [name, service] of Object.entries({ 'main-api': mainApi, planner, integrations })) {
    memory.idle[name] = await rssMiB(service.pid);
  }

  // Planner data: 50 users with a week, the read project (500 allocations), one neighbour each.
  const client = (await post(`${mainApi.url}/v1/clients`, { name: 'Planner client' })).id;
  const readProject = (await post(`${mainApi.url}/v1/projects`, { name: 'Read me', client_id: client })).id;
  const saveProject = (await post(`${mainApi.url}/v1/projects`, { name: 'Save here', client_id: client })).id;
  const neighbour = (await post(`${mainApi.url}/v1/projects`, { name: 'Neighbour', client_id: client })).id;
  const week = [1, 2, 3, 4, 5].map((day) => ({
    day_of_week: day,
    daily_hours: 8,
    start_at: '09:00:00',
    end_at: '17:00:00',
  }));
  /** `count` collaborators working that week, named `<prefix><n>`: their ids. */
  const peopleWithWeek = async (prefix, count) => {
    const ids = [];
    for (let i = 0; i < count; i += 1) {
      const user = await post(`${mainApi.url}/v1/users`, {
        first_name: `${prefix.toUpperCase()}${i}`,
        last_name: 'B',
        email: `${prefix}${i}@bench.test`,
        role_id: 4,
      });
      await post(`${mainApi.url}/v1/working-time/users/${user.id}`, { entries: week }, 'PUT');
      ids.push(user.id);
    }
    return ids;
  };
  /**
   * The forecast's project: hourly rate, estimated by position, on a ratecard; 30 people (designers
   * and writers) with a time entry of 7.5 approved hours each weekday of the two years before today,
   * and each a year's booking from today (a total spread as 6 hours each weekday, its days stored;
   * every third person's tentative). Answers the project's id.
   */
  const seedForecast = async () => {
    say('seeding the forecast');
    const designer = (await post(`${mainApi.url}/v1/positions`, { name: 'Forecast designer' })).id;
    const writer = (await post(`${mainApi.url}/v1/positions`, { name: 'Forecast writer' })).id;
    const ratecard = (
      await post(`${mainApi.url}/v1/ratecards`, {
        name: 'Forecast',
        prices: [
          { position_id: designer, price: 110 },
          { position_id: writer, price: 85 },
        ],
      })
    ).id;
    const project = (
      await post(`${mainApi.url}/v1/projects`, {
        name: 'Forecast',
        client_id: client,
        income_type: 'hourly_rate',
        ratecard_id: ratecard,
        estimated_by_position: true,
        users_positions: [
          { id: designer, estimated_time: 60_000 },
          { id: writer, estimated_time: 40_000 },
        ],
      })
    ).id;
    const people = [];
    for (let i = 0; i < FORECAST_PEOPLE; i += 1) {
      const user = await post(`${mainApi.url}/v1/users`, {
        first_name: `F${i}`,
        last_name: 'B',
        email: `f${i}@bench.test`,
        role_id: 4,
        user_position_id: i % 2 === 0 ? designer : writer,
      });
      people.push(user.id);
    }
    await sql(
      database.url,
      `INSERT INTO main_api.time_entries (company_id, user_id, project_id, user_position_id, date, hours, status)
       SELECT $1, u.id, $3, u.user_position_id, day::date, 7.5, 'approved'
         FROM main_api.users u
         CROSS JOIN generate_series(current_date - 730, current_date - 1, interval '1 day') day
        WHERE u.id = ANY($2::int[]) AND extract(isodow FROM day) < 6`,
      [companyId, people, project],
    );
    await sql(
      database.url,
      `WITH booked AS (
         INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id, status)
         SELECT $1, u, $3, current_date, current_date + 364,
                6 * (SELECT count(*) FROM generate_series(current_date, current_date + 364, interval '1 day') d WHERE extract(isodow FROM d) < 6),
                1, CASE WHEN ordinality % 3 = 0 THEN 'tentative' ELSE 'confirmed' END
           FROM unnest($2::int[]) WITH ORDINALITY AS person(u, ordinality)
         RETURNING id, company_id, user_id, status, from_date, to_date)
       INSERT INTO planner.allocation_days (allocation_id, day, company_id, user_id, status, hours)
       SELECT booked.id, day::date, booked.company_id, booked.user_id, booked.status, 6
         FROM booked CROSS JOIN generate_series(booked.from_date, booked.to_date, interval '1 day') day
        WHERE extract(isodow FROM day) < 6`,
      [companyId, people, project],
    );
    await sql(database.url, 'ANALYZE main_api.time_entries');
    await sql(database.url, 'ANALYZE planner.allocations');
    await sql(database.url, 'ANALYZE planner.allocation_days');
    return project;
  };
  const users = await peopleWithWeek('u', 50);
  await sql(
    database.url,
    `INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id)
     SELECT $1, u, p.project_id, DATE '2027-01-04' + 14 * k + p.shift, DATE '2027-01-04' + 14 * k + p.shift + 4, 20, 1
       FROM unnest($2::int[]) u CROSS JOIN generate_series(0, 9) k
       CROSS JOIN (VALUES ($3::int, 0), ($4::int, 2)) AS p(project_id, shift)`,
    [companyId, users, readProject, neighbour],
  );
  say(`seeding ${OTHER_ALLOCATIONS.toLocaleString('en')} other allocations`);
  await insertOtherAllocations(database.url, companyId, 1, OTHER_ALLOCATIONS);
  // Integrations: the client the created projects reference.
  await post(`${integrations.url}/v2/integrations/clients`, {
    metadata: { source: 'JIRA' },
    id: 'BENCH-CLIENT',
    name: 'Bench',
  });

  // The planner v2 ledger: 200 more people with a week, a project for the service's bookings and
  // one for the baseline's (the same weeks on each), and the days of the 50 read users' allocations
  // in the quarter, planned by reading them once (the ledger plans on first read what it has no
  // days for).
  const ledgerPeople = wanted(CASE.ledgerWrite) ? await peopleWithWeek('l', LEDGER_PEOPLE) : [];
  const ledgerProject = (await post(`${mainApi.url}/v1/projects`, { name: 'Ledger', client_id: client })).id;
  const ledgerBaselineProject = (
    await post(`${mainApi.url}/v1/projects`, { name: 'Ledger baseline', client_id: client })
  ).id;
  const quarterList = `/v2/allocations?user_ids=${users.join(',')}&from=2027-01-01&to=2027-03-31&include=days&limit=500`;
  let quarterAllocations = 0;
  for (let cursor = ''; wanted(CASE.ledgerList);) {
    const page = await fetch(`${planner.url}${quarterList}${cursor}`, { headers }).then((r) => r.json());
    quarterAllocations += page.data.length;
    if (!page.next_cursor) {
      break;
    }
    cursor = `&cursor=${page.next_cursor}`;
  }

  // The availability read: 200 people in a team, in Bavaria's calendar (2027 imported) and Berlin's
  // time zone, Monday to Friday 8 hours until June then Monday to Thursday 7.5, two days off each
  // (one whole, one from 13:00 to 17:00 Berlin time), and 26 fortnights of bookings each over 2027
  // (4 hours each weekday, confirmed and tentative in turn), with their days: 9,360 allocations and
  // 94,640 days of theirs among the other allocations.
  const availabilityPeople = wanted(CASE.availability) ? await peopleWithWeek('a', AVAILABILITY_PEOPLE) : [];
  let availabilityTeam = 0;
  if (availabilityPeople.length > 0) {
    say('seeding the availability read');
    const bavaria = await post(`${mainApi.url}/v1/holiday-calendars`, {
      name: 'Bench Bavaria',
      country: 'DE',
      region: 'BY',
    });
    await post(`${mainApi.url}/v1/holiday-calendars/${bavaria.id}/import?year=2027`, {});
    availabilityTeam = (await post(`${mainApi.url}/v1/teams`, { name: 'Availability' })).id;
    const availabilityProject = (
      await post(`${mainApi.url}/v1/projects`, { name: 'Availability', client_id: client })
    ).id;
    await post(`${mainApi.url}/v1/teams/${availabilityTeam}/users`, { user_ids: availabilityPeople });
    const partTime = [1, 2, 3, 4].map((day) => ({
      day_of_week: day,
      daily_hours: 7.5,
      start_at: '09:00:00',
      end_at: '17:00:00',
    }));
    for (const [index, person] of availabilityPeople.entries()) {
      await post(`${mainApi.url}/v1/users/${person}/holiday-calendars`, {
        calendar_id: bavaria.id,
        effective_from: '2027-01-01',
      });
      await post(`${mainApi.url}/v1/users/${person}/time-zone`, { time_zone: 'Europe/Berlin' }, 'PUT');
      await post(`${mainApi.url}/v1/working-time/users/${person}/schedules`, {
        effective_from: '2027-07-01',
        entries: partTime,
      });
      const day = (offset) => new Date(Date.UTC(2027, 1, 1 + ((index * 3 + offset) % 300)));
      const wholeDay = day(0).toISOString().slice(0, 10);
      await post(`${mainApi.url}/v1/user/leaves`, {
        userId: person,
        leaveTypeId: 1,
        start: `${wholeDay}T00:00:00Z`,
        end: `${wholeDay}T23:59:59Z`,
        allDay: true,
      });
      const afternoon = day(150).toISOString().slice(0, 10);
      await post(`${mainApi.url}/v1/user/leaves`, {
        userId: person,
        leaveTypeId: 1,
        // 13:00 to 17:00 in Berlin, in summer or in winter.
        start: `${afternoon}T${afternoon >= '2027-03-28' && afternoon < '2027-10-31' ? '11' : '12'}:00:00Z`,
        end: `${afternoon}T${afternoon >= '2027-03-28' && afternoon < '2027-10-31' ? '15' : '16'}:00:00Z`,
        allDay: false,
      });
    }
    await sql(
      database.url,
      `WITH booked AS (
         INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours,
                                          assigned_by_user_id, status, mode)
         SELECT $1, person, $3, DATE '2027-01-04' + 14 * k, DATE '2027-01-04' + 14 * k + 13, 40, $4,
                CASE WHEN k % 2 = 0 THEN 'confirmed' ELSE 'tentative' END, 'total_hours'
           FROM unnest($2::int[]) person CROSS JOIN generate_series(0, 25) k
         RETURNING id, user_id, from_date, status)
       INSERT INTO planner.allocation_days (allocation_id, day, company_id, user_id, status, hours, pinned)
       SELECT booked.id, day::date, $1, booked.user_id, booked.status,
              CASE WHEN extract(isodow FROM day) < 6 THEN 4 ELSE 0 END, false
         FROM booked CROSS JOIN generate_series(booked.from_date, booked.from_date + 13, interval '1 day') day`,
      [companyId, availabilityPeople, availabilityProject, credentials.userId],
    );
    await sql(database.url, 'ANALYZE planner.allocations');
    await sql(database.url, 'ANALYZE planner.allocation_days');
  }
  const availabilityPath = `/v2/availability?team_id=${availabilityTeam}&from=2027-01-01&to=2027-12-31`;

  const cases = [];
  // The machine's speed drifts by tens of percent within minutes (bench/README.md), so the service
  // and its baseline take turns: a warm-up each, then BENCH_ROUNDS alternating rounds, and each
  // figure is the median of its rounds.
  // `statements`: the SQL statements one request sends, service / baseline (the tenant settings
  // statement that shares each of the service's round trips not counted), so a ratio compares the
  // same database work.
  const measure = async (name, service, base, note = '', statements = '') => {
    if (!wanted(name)) {
      return;
    }
    say(name);
    if (base) {
      await load(service, WARM_UP_SECONDS);
      await load(base, WARM_UP_SECONDS);
    }
    const serviceRounds = [];
    const baselineRounds = [];
    for (let round = 0; round < (base ? ROUNDS : 1); round += 1) {
      serviceRounds.push(await load(service));
      if (base) {
        baselineRounds.push(await load(base));
      }
    }
    cases.push({
      name,
      service: summarize(serviceRounds),
      baseline: base ? summarize(baselineRounds) : undefined,
      note,
      statements,
    });
  };

  // Scaling of the main-api reads: the same request at 1k, 10k and 100k projects.
  const scaling = [];
  const listPath = LIST_PATH;
  for (const scale of wanted(CASE.projectsList) || wanted(CASE.projectDetail) ? PROJECT_SCALES : []) {
    await seedProjects(scale);
    const someProject = projects - 7;
    scaling.push({
      projects: scale,
      list: await oneAtATime(`${mainApi.url}${listPath}`, headers),
      detail: await oneAtATime(`${mainApi.url}/v1/projects/${someProject}`, headers),
    });
  }
  const detailId = projects - 7;

  await measure(
    CASE.projectsList,
    { url: `${mainApi.url}${listPath}`, headers },
    { url: `${baseline}${listPath}` },
    '',
    '3 / 3 (count and page side by side, then the page figures)',
  );
  await measure(
    CASE.projectDetail,
    { url: `${mainApi.url}/v1/projects/${detailId}`, headers },
    { url: `${baseline}/v1/projects/${detailId}` },
    '',
    '1 / 1',
  );
  await measure(
    `planner getAllocations (50 users × 10, ${OTHER_ALLOCATIONS.toLocaleString('en')} other allocations)`,
    { url: `${planner.url}/allocation/getAllocations/${readProject}`, headers },
    { url: `${baseline}/allocation/getAllocations/${readProject}` },
    'the baseline makes no main-api call; the planner makes one',
    '2 / 2 (and main-api answers the look-up call with its own)',
  );
  let saves = 0;
  let baselineSaves = 0;
  const saveRequest = (counter) => (request) => {
    const n = counter();
    const from = new Date(Date.UTC(2040, 0, 2 + 7 * Math.floor(n / users.length)));
    const to = new Date(from.getTime() + 4 * 86_400_000);
    return {
      ...request,
      body: JSON.stringify({
        userId: users[n % users.length],
        companyId,
        resource: { typeId: 'Project', entityId: saveProject },
        from: from.toISOString().slice(0, 10),
        to: to.toISOString().slice(0, 10),
        assignedByUserId: credentials.userId,
        allocatedHours: 16,
      }),
    };
  };
  await measure(
    'planner saveAllocation',
    {
      url: `${planner.url}/allocation/saveAllocation`,
      headers,
      requests: [{ method: 'POST', setupRequest: saveRequest(() => saves++) }],
    },
    {
      url: `${baseline}/allocation/saveAllocation`,
      headers: { 'content-type': 'application/json' },
      requests: [{ method: 'POST', setupRequest: saveRequest(() => 1_000_000 + baselineSaves++) }],
    },
    'the baseline only inserts; the planner first checks user, project and work days in main-api (one call)',
    '1 / 1 (TypeORM sends its INSERT between BEGIN and COMMIT)',
  );
  let ledgerWrites = 0;
  let ledgerBaselineWrites = 0;
  const ledgerBooking = (counter, project) => (request) => {
    // Each request one person's new week (Monday to Friday, from 2041-01-07), 2 hours a day.
    const n = counter();
    const from = new Date(Date.UTC(2041, 0, 7 + 7 * Math.floor(n / LEDGER_PEOPLE)));
    const to = new Date(from.getTime() + 4 * 86_400_000);
    return {
      ...request,
      body: JSON.stringify({
        user_id: ledgerPeople[n % LEDGER_PEOPLE],
        project_id: project,
        from: from.toISOString().slice(0, 10),
        to: to.toISOString().slice(0, 10),
        hours_per_day: 2,
        capacity_policy: 'reject',
        assigned_by_user_id: credentials.userId,
      }),
    };
  };
  await measure(
    CASE.ledgerWrite,
    {
      url: `${planner.url}/v2/allocations`,
      headers,
      requests: [{ method: 'POST', setupRequest: ledgerBooking(() => ledgerWrites++, ledgerProject) }],
    },
    {
      url: `${baseline}/v2/allocations`,
      headers: { 'content-type': 'application/json' },
      requests: [
        { method: 'POST', setupRequest: ledgerBooking(() => ledgerBaselineWrites++, ledgerBaselineProject) },
      ],
    },
    "the baseline takes the same lock and writes the same rows; the planner also asks main-api for the person's calendar (one call)",
    '13 / 13 (settings, the span planned again; BEGIN, the lock, the allocations planned again, overlap, insert, days out and in, booked by day, COMMIT; the two reads of the answer)',
  );
  await measure(
    CASE.ledgerList,
    { url: `${planner.url}${quarterList}`, headers },
    { url: `${baseline}${quarterList}` },
    `the first 500 of the quarter's ${quarterAllocations} allocations, with their days`,
    '2 / 2',
  );
  if (wanted(CASE.availability)) {
    // The two must answer the same figures, or the ratio compares different work.
    const [served, computed] = await Promise.all([
      fetch(`${planner.url}${availabilityPath}`, { headers }).then((response) => response.json()),
      fetch(`${baseline}${availabilityPath}`).then((response) => response.json()),
    ]);
    if (
      JSON.stringify(served.people) !== JSON.stringify(computed.people) ||
      served.people.length !== AVAILABILITY_PEOPLE
    ) {
      throw new Error('the planner and the baseline answer different availability figures');
    }
    // How one read's time grows with the people it answers, one request at a time.
    const growth = [];
    for (const count of AVAILABILITY_GROWTH) {
      const ids = availabilityPeople.slice(0, count).join(',');
      const path = `/v2/availability?user_ids=${ids}&from=2027-01-01&to=2027-12-31`;
      growth.push(
        `${count} people ${await oneAtATime(`${planner.url}${path}`, headers, 10)} ms ` +
          `(baseline ${await oneAtATime(`${baseline}${path}`, {}, 10)} ms)`,
      );
    }
    // Two connections: a year of 200 people is a heavy read (about a second); 32 at once would only
    // measure queueing (and autocannon's timeouts).
    await measure(
      CASE.availability,
      { url: `${planner.url}${availabilityPath}`, headers, connections: 2 },
      { url: `${baseline}${availabilityPath}`, connections: 2 },
      `one at a time: ${growth.join('; ')}. The baseline reads the same rows of both schemas and computes the same ` +
        'series in plain code; the planner asks main-api (one look-up) and checks that nothing needs planning again',
      '4 / 6 (planner: allocations to plan again, revision, booked days; main-api: its look-up / ' +
        'baseline: people, schedules, holidays, leaves, time zones, booked days)',
    );
  }
  if (wanted(CASE.forecast)) {
    const forecastPath = `/v1/projects/${await seedForecast()}/forecast?granularity=month`;
    const [served, computed] = await Promise.all([
      fetch(`${mainApi.url}${forecastPath}`, { headers }).then((response) => response.json()),
      fetch(`${baseline}${forecastPath}`).then((response) => response.json()),
    ]);
    if (
      JSON.stringify(served.totals) !== JSON.stringify(computed.totals) ||
      !(served.totals.actual_hours > 0)
    ) {
      throw new Error('main-api and the baseline answer different forecasts');
    }
    await measure(
      CASE.forecast,
      { url: `${mainApi.url}${forecastPath}`, headers, connections: 4 },
      { url: `${baseline}${forecastPath}`, connections: 4 },
      `one at a time: ${await oneAtATime(`${mainApi.url}${forecastPath}`, headers, 10)} ms ` +
        `(baseline ${await oneAtATime(`${baseline}${forecastPath}`, {}, 10)} ms). ` +
        `${served.totals.actual_hours} h actual, ${served.totals.scheduled_hours + served.totals.tentative_hours} h planned. ` +
        "The baseline runs both services' statements on both schemas and main-api's compiled computation; main-api calls the planner " +
        '(one request) for the planned hours',
      '3 + 2 / 3 + 2 (main-api: facts, approved hours by day, positions; planner: what to plan again, planned hours by day)',
    );
  }
  let creates = 0;
  await measure(
    'integrations POST /v2/integrations/projects',
    {
      url: `${integrations.url}/v2/integrations/projects`,
      headers,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              metadata: { source: 'JIRA' },
              id: `P-${creates++}`,
              name: 'Bench project',
              client_id: 'BENCH-CLIENT',
            }),
          }),
        },
      ],
    },
    undefined,
    'no baseline: each create is a reservation, a main-api create and a completion',
  );
  // Issue 19: the client-credentials endpoint against the rate at which one Node process signs the
  // same tokens with the same key and does nothing else, in alternating rounds of the same length.
  if (ONLY) {
    // Some cases only: their figures, and docs/performance.md left as the last whole run wrote it.
    process.stdout.write(`${JSON.stringify(cases, null, 2)}\n`);
  } else {
    say('POST /v1/oauth/token (client credentials) against RS256 signing alone');
    const tokenEndpoint = {
      url: `${mainApi.url}/v1/oauth/token?grant_type=client_credentials`,
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${credentials.apiKey}:${credentials.clientSecret}`).toString('base64')}`,
      },
    };
    await load(tokenEndpoint, WARM_UP_SECONDS);
    const tokenRounds = [];
    const signingRounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      signingRounds.push(await signingRate(key.privatePem, SECONDS));
      tokenRounds.push(await load(tokenEndpoint));
    }
    const tokenEndpointResult = summarize(tokenRounds);
    cases.push({
      name: 'POST /v1/oauth/token (client credentials)',
      service: tokenEndpointResult,
      note: 'baseline: RS256 signing alone, below',
    });
    const signingAlone = median(signingRounds);
    // For comparison only: two signing processes at once, i.e. both cores doing nothing but signing.
    const signingBothCores = (
      await Promise.all([0, 1].map(() => signingRate(key.privatePem, SECONDS)))
    ).reduce((sum, rate) => sum + rate, 0);
    for (const [name, service] of Object.entries({ 'main-api': mainApi, planner, integrations })) {
      memory.loaded[name] = await rssMiB(service.pid);
    }

    const ratio = (service, base) => (base ? (service / base).toFixed(2) : '–');
    const lines = [
      '# Performance',
      '',
      `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ` +
        `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL on loopback. autocannon, ${CONNECTIONS} connections, ` +
        `${SECONDS} s per round. A case with a baseline runs ${ROUNDS} rounds of the service and ${ROUNDS} of the baseline, taking turns after a ` +
        `${WARM_UP_SECONDS} s warm-up each; its figures are the medians of the rounds (the req/s of each round are in the last column). ` +
        'The services, the baseline, PostgreSQL and autocannon share the machine. The baseline ' +
        '(`bench/baseline-server.mjs`) is a minimal Fastify + pg server answering the same request with the same SQL ' +
        "statements (the same number per request, second column), written by hand, connected as the services' runtime roles " +
        'under the same row-level security policies (its company a session setting, where the services send a settings statement ' +
        'in each round trip), without the framework, authentication, validation or main-api calls. ' +
        'Profiles, the changes they led to and before/after numbers: `bench/README.md`.',
      '',
      '| case | SQL statements per request (service / baseline) | service req/s | p50 ms | p99 ms | baseline req/s | p50 ms | p99 ms | throughput ratio | p99 ratio | note | rounds, req/s (service / baseline) |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...cases.map(
        ({ name, service, baseline: base, note, statements }) =>
          `| ${name} | ${statements || '–'} | ${service.rps} | ${service.p50} | ${service.p99} | ${base?.rps ?? '–'} | ${base?.p50 ?? '–'} | ${base?.p99 ?? '–'} | ` +
          `${ratio(service.rps, base?.rps)} | ${base ? (service.p99 / base.p99).toFixed(2) : '–'} | ${note}${service.errors ? ` (${service.errors} non-2xx)` : ''} | ` +
          `${base ? `${service.rounds.join(', ')} / ${base.rounds.join(', ')}` : ''} |`,
      ),
      '',
      '## Scaling: one request at a time (median ms) as the data grows',
      '',
      '| projects in the company | GET /v1/projects?perPage=50 (status filter) | GET /v1/projects/{id} |',
      '| --- | --- | --- |',
      ...scaling.map((row) => `| ${row.projects.toLocaleString('en')} | ${row.list} | ${row.detail} |`),
      '',
      '## Token endpoint against RS256 signing alone (issue 19: at least 0.5)',
      '',
      'One Node process signing access tokens of the same shape with the same 2048-bit key in a loop ' +
        '(`bench/rs256-sign-rate.mjs`), and `POST /v1/oauth/token?grant_type=client_credentials` with a correct ' +
        `API key and secret, ${ROUNDS} alternating rounds of ${SECONDS} s each, medians.`,
      '',
      '| token endpoint req/s | p99 ms | RS256 signatures/s alone (one process) | ratio | signatures/s, two processes (both cores) | ratio | rounds (endpoint / signing) |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      `| ${tokenEndpointResult.rps} | ${tokenEndpointResult.p99} | ${signingAlone} | ${(tokenEndpointResult.rps / signingAlone).toFixed(2)} | ` +
        `${signingBothCores} | ${(tokenEndpointResult.rps / signingBothCores).toFixed(2)} | ` +
        `${tokenEndpointResult.rounds.join(', ')} / ${signingRounds.join(', ')} |`,
      '',
      'The target is read against one process: a main-api replica is one Node process, and the ceiling ' +
        'of its token endpoint is what that process can sign. The two-process figure is what the machine ' +
        'signs with nothing else running at all (no HTTP, no PostgreSQL, no load generator).',
      '',
      '## Memory (RSS, MiB; issue 19: main-api at most 250 after the whole bench)',
      '',
      '| service | idle | after the load |',
      '| --- | --- | --- |',
      ...Object.keys(memory.idle).map(
        (name) => `| ${name} | ${memory.idle[name]} | ${memory.loaded[name]} |`,
      ),
      '',
    ];
    const performancePage = join(root, 'docs', 'performance.md');
    writeFileSync(performancePage, [...lines, ...keptSections(performancePage)].join('\n'));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
} finally {
  for (const service of running.reverse()) {
    await service.stop();
  }
  await database.drop();
}
