// Benchmark: GET /v1/projects?perPage=50 and /v1/projects/search-by-name with 100,000 projects in
// one company (issue 5). Runs the built main-api against a scratch database on the server at
// BENCH_DATABASE_URL (default: the local PostgreSQL) and prints latency percentiles as JSON.
// Usage: npx nx run main-api:build && node bench/projects-list.bench.mjs [projects=100000] [requests=200]
import { spawn } from 'node:child_process';
import { generateKeyPairSync, createHash, sign, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROJECTS = Number(process.argv[2] ?? 100_000);
const REQUESTS = Number(process.argv[3] ?? 200);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `bench_projects_${Date.now()}`;
const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${database}`);

async function sql(url, text, values) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(file, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'dist/apps/main-api/apps/main-api/src', file)], {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}`))));
  });
}

function token(privateKey, kid, companyId) {
  const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode({ iss: 'agency-platform', aud: 'agency-platform-api', sub: 'user:1', company_id: companyId, role_id: 1, iat: now, exp: now + 3600, jti: randomUUID() })}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

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

await sql(adminUrl, `CREATE DATABASE "${database}"`);
let service;
try {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { n, e } = publicKey.export({ format: 'jwk' });
  const kid = createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
  const env = {
    DATABASE_URL: databaseUrl,
    JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    LOG_LEVEL: 'warn',
  };
  await run('migrate.js', env);

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

  const port = await freePort();
  service = spawn(process.execPath, [join(root, 'dist/apps/main-api/apps/main-api/src/main.js')], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    if (
      (await fetch(`${base}/health/ready`)
        .then((r) => r.status)
        .catch(() => 0)) === 200
    ) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const headers = { authorization: `Bearer ${token(privateKey, kid, companyId)}` };
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
  service?.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await sql(adminUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}
