// Benchmark: planner getAllocations for a project with 50 users × 10 allocations each (each user
// also booked on another project, so prorating runs), and saveAllocation, under autocannon, first
// with 10,000 and then with 1,000,000 other allocations in the table (issue 6). Runs the built
// main-api and planner against a scratch database on BENCH_DATABASE_URL and prints JSON.
// Usage: npx nx run-many -t build -p main-api planner && node bench/planner-allocations.bench.mjs [seconds=10] [connections=32]
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import {
  insertOtherAllocations,
  rssMiB,
  runCommand,
  scratchDatabase,
  signingKey,
  sql,
  startService,
} from './support.mjs';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = Number(process.argv[3] ?? 32);
const USERS = 50;
const ALLOCATIONS_PER_USER = 10;
const SIZES = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);

const database = await scratchDatabase('bench_planner');
const services = [];
try {
  const key = signingKey();
  const common = { DATABASE_URL: database.url, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  await runCommand('main-api', 'migrate.js', { ...common, JWT_PRIVATE_KEY: key.privatePem });
  await runCommand('planner', 'migrate.js', { ...common, MAIN_API_URL: 'http://127.0.0.1:1' });

  const { rows } = await sql(
    database.url,
    "INSERT INTO main_api.companies (name) VALUES ('Bench') RETURNING id",
  );
  const companyId = rows[0].id;
  const mainApi = await startService('main-api', { ...common, JWT_PRIVATE_KEY: key.privatePem });
  services.push(mainApi);
  const planner = await startService('planner', {
    ...common,
    MAIN_API_URL: mainApi.url,
    // Keep the default 5 s deadline: the run measures the service, not a tripped breaker.
  });
  services.push(planner);
  const headers = {
    authorization: `Bearer ${key.token({ companyId })}`,
    'content-type': 'application/json',
  };
  const post = async (path, body, method = 'POST') => {
    const response = await fetch(`${mainApi.url}/v1${path}`, { method, headers, body: JSON.stringify(body) });
    if (!response.ok) {
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
    return response.json();
  };

  // main-api: a client, the project read, 20 other projects, a project to save on, 50 users.
  const client = await post('/clients', { name: 'Bench client' });
  const project = await post('/projects', { name: 'Read me', client_id: client.id });
  const saveTarget = await post('/projects', { name: 'Save here', client_id: client.id });
  const others = [];
  for (let i = 0; i < 20; i += 1) {
    others.push((await post('/projects', { name: `Other ${i}`, client_id: client.id })).id);
  }
  const week = [1, 2, 3, 4, 5].map((day) => ({
    day_of_week: day,
    daily_hours: 8,
    start_at: '09:00:00',
    end_at: '17:00:00',
  }));
  const users = [];
  for (let i = 0; i < USERS; i += 1) {
    const user = await post('/users', {
      first_name: `User${i}`,
      last_name: 'Bench',
      email: `u${i}@bench.test`,
      role_id: 4,
    });
    await post(`/working-time/users/${user.id}`, { entries: week }, 'PUT');
    users.push(user.id);
  }
  await post('/user/leaves', {
    userId: users[0],
    leaveTypeId: 1,
    start: '2027-01-05T00:00:00Z',
    end: '2027-01-05T23:59:59Z',
    allDay: true,
  });

  // planner: 10 allocations per user on the project (fortnightly weeks from 2027-01-04), and the same
  // weeks shifted by two days on one other project each, so every allocation has a prorated neighbour.
  await sql(
    database.url,
    `INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id)
     SELECT $1, u.id, p.project_id, DATE '2027-01-04' + 14 * k + p.shift, DATE '2027-01-04' + 14 * k + p.shift + 4, 20, 1
       FROM unnest($2::int[]) WITH ORDINALITY AS u(id, n)
       CROSS JOIN generate_series(0, $3 - 1) k
       CROSS JOIN LATERAL (VALUES ($4::int, 0), (($5::int[])[1 + (u.n % 20)], 2)) AS p(project_id, shift)`,
    [companyId, users, ALLOCATIONS_PER_USER, project.id, others],
  );

  let filled = 0;
  /** Other tenants' allocations (90 %) and other users of this company (10 %), never overlapping. */
  const fillTo = async (total) => {
    await insertOtherAllocations(database.url, companyId, filled + 1, total);
    filled = total;
  };

  const summarize = (result) => ({
    requests_per_second: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  });

  const readProject = async () =>
    summarize(
      await autocannon({
        url: `${planner.url}/allocation/getAllocations/${project.id}`,
        headers,
        connections: CONNECTIONS,
        duration: SECONDS,
      }),
    );

  let saves = 0;
  const save = async () =>
    summarize(
      await autocannon({
        url: `${planner.url}/allocation/saveAllocation`,
        headers,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              // Each request a new week for one of the 50 users: every save is a real insert.
              const n = saves++;
              const from = new Date(Date.UTC(2040, 0, 2 + 7 * Math.floor(n / USERS)));
              const to = new Date(from.getTime() + 4 * 86_400_000);
              return {
                ...request,
                body: JSON.stringify({
                  userId: users[n % USERS],
                  companyId,
                  resource: { typeId: 'Project', entityId: saveTarget.id },
                  from: from.toISOString().slice(0, 10),
                  to: to.toISOString().slice(0, 10),
                  assignedByUserId: users[0],
                  allocatedHours: 16,
                }),
              };
            },
          },
        ],
      }),
    );

  const check = await fetch(`${planner.url}/allocation/getAllocations/${project.id}`, { headers }).then((r) =>
    r.json(),
  );
  const allocationsRead = check.users.reduce((sum, user) => sum + user.allocations.length, 0);
  const results = {
    machine: `${(await import('node:os')).cpus().length} cores, PostgreSQL local, Node ${process.version}`,
    seconds_per_case: SECONDS,
    connections: CONNECTIONS,
    project: { users: check.users.length, allocations: allocationsRead },
    planner_rss_mib_idle: await rssMiB(planner.pid),
  };
  const oneAtATime = async () => {
    const timings = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      await fetch(`${planner.url}/allocation/getAllocations/${project.id}`, { headers }).then((r) =>
        r.arrayBuffer(),
      );
      timings.push(performance.now() - started);
    }
    return Math.round(timings.sort((a, b) => a - b)[10]);
  };
  for (const size of SIZES) {
    await fillTo(size);
    await readProject(); // warm-up: plans and JWKS cached, connections open
    results[`getAllocations one at a time, p50 ms, ${size.toLocaleString('en')} other allocations`] =
      await oneAtATime();
    results[`getAllocations, ${size.toLocaleString('en')} other allocations`] = await readProject();
  }
  results[`saveAllocation, ${SIZES.at(-1).toLocaleString('en')} other allocations`] = await save();
  results.planner_rss_mib_after_load = await rssMiB(planner.pid);
  results.main_api_rss_mib_after_load = await rssMiB(mainApi.pid);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const service of services.reverse()) {
    await service.stop();
  }
  await database.drop();
}
