// Benchmark: GET /v1/projects?perPage=50 and /v1/projects/search-by-name with 100,000 projects in
// one company (issue 5). Runs the built main-api against a scratch database on the server at
// BENCH_DATABASE_URL (default: the local PostgreSQL) and prints latency percentiles as JSON.
// Usage: npx nx run main-api:build && node bench/projects-list.bench.mjs [projects=100000] [requests=200]
import { runCommand, scratchDatabase, signingKey, sql, startService } from './support.mjs';

const PROJECTS = Number(process.argv[2] ?? 100_000);
const REQUESTS = Number(process.argv[3] ?? 200);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(url, headers) {
  const timings = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const started = process.hrtime.bigint();
    const response = await fetch(url(i), { headers });
    await response.arrayBuffer();
    if (!response.ok) {
      throw new Error(`${url(i)} answered ${response.status}`);
    }
    timings.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  timings.sort((a, b) => a - b);
  return {
    p50_ms: +percentile(timings, 50).toFixed(1),
    p95_ms: +percentile(timings, 95).toFixed(1),
    max_ms: +timings.at(-1).toFixed(1),
  };
}

const database = await scratchDatabase('bench_projects');
const databaseUrl = database.url;
let service;
try {
  const key = signingKey();
  const env = { DATABASE_URL: databaseUrl, JWT_PRIVATE_KEY: key.privatePem, LOG_LEVEL: 'warn' };
  await runCommand('main-api', 'migrate.js', env);

  const seedStarted = Date.now();
  const { rows } = await sql(
    databaseUrl,
    "INSERT INTO main_api.companies (name) VALUES ('Bench') RETURNING id",
  );
  const companyId = rows[0].id;
  await sql(
    databaseUrl,
    'INSERT INTO main_api.clients (company_id, name) SELECT $1, $2 || g FROM generate_series(1, 200) g',
    [companyId, 'Client '],
  );
  await sql(
    databaseUrl,
    `INSERT INTO main_api.projects (company_id, client_id, name, status, health)
     SELECT $1, c.id, 'Project ' || g || ' ' || md5(g::text), (ARRAY['active','finished','suspended'])[1 + g % 3], 1 + g % 4
       FROM generate_series(1, $2) g
       JOIN LATERAL (SELECT id FROM main_api.clients WHERE company_id = $1 ORDER BY id OFFSET (g % 200) LIMIT 1) c ON true`,
    [companyId, PROJECTS],
  );
  await sql(databaseUrl, 'ANALYZE');
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  service = await startService('main-api', env);
  const base = service.url;
  const headers = { authorization: `Bearer ${key.token({ companyId })}` };
  const lastPage = Math.ceil(PROJECTS / 50);
  const results = {
    projects: PROJECTS,
    requests_per_case: REQUESTS,
    seed_seconds: seedSeconds,
    'GET /v1/projects?perPage=50 (first pages)': await measure(
      (i) => `${base}/v1/projects?perPage=50&page=${1 + (i % 10)}`,
      headers,
    ),
    'GET /v1/projects?perPage=50 (deep pages)': await measure(
      (i) => `${base}/v1/projects?perPage=50&page=${lastPage - (i % 10)}`,
      headers,
    ),
    'GET /v1/projects?perPage=50&filters={"status":"active"}': await measure(
      () => `${base}/v1/projects?perPage=50&filters=${encodeURIComponent('{"status":"active"}')}`,
      headers,
    ),
    'GET /v1/projects/search-by-name/{text}': await measure(
      (i) => `${base}/v1/projects/search-by-name/${1000 + i}`,
      headers,
    ),
  };
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} finally {
  await service?.stop();
  await database.drop();
}
