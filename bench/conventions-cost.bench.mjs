// What issue 36's conventions (ETags and conditional requests, per-company quotas) cost main-api's
// reads: this checkout's build against the build of a commit before them, side by side on one
// scratch database, in alternating rounds, so both see the same machine load. Prints the medians and
// each round as JSON.
// Usage:
//   git worktree add /tmp/before 0297c93 && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   (cd /tmp/before && npx nx run main-api:build) && npx nx run main-api:build
//   node bench/conventions-cost.bench.mjs /tmp/before [rounds=5] [seconds=8]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { root, runCommand, scratchDatabase, signingKey, sql, startService } from './support.mjs';

const BEFORE = process.argv[2];
const ROUNDS = Number(process.argv[3] ?? 5);
const SECONDS = Number(process.argv[4] ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PROJECTS = 20_000;
if (!BEFORE) {
  throw new Error(
    'usage: node bench/conventions-cost.bench.mjs <checkout of the commit before> [rounds] [seconds]',
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const say = (text) => process.stderr.write(`bench: ${text}\n`);

const database = await scratchDatabase('bench_conventions');
const running = [];
try {
  const key = signingKey();
  const env = {
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    JWT_PRIVATE_KEY: key.privatePem,
  };
  await runCommand('main-api', 'migrate.js', env);
  const credentials = await new Promise((resolve, reject) => {
    let out = '';
    const child = spawn(
      process.execPath,
      [
        join(root, 'dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js'),
        '--company',
        'Bench',
      ],
      { env: { ...process.env, ...env } },
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
  await sql(
    database.url,
    `INSERT INTO main_api.projects (company_id, client_id, name, status, health)
     SELECT $1, c.id, 'Project ' || g, 'active', 1 + g % 4 FROM generate_series(1, $2::int) g
       JOIN LATERAL (SELECT id FROM main_api.clients WHERE company_id = $1 ORDER BY id OFFSET (g % 200) LIMIT 1) c ON true`,
    [companyId, PROJECTS],
  );
  await sql(database.url, 'ANALYZE main_api.projects');
  const {
    rows: [{ id: projectId }],
  } = await sql(
    database.url,
    'SELECT id FROM main_api.projects WHERE company_id = $1 ORDER BY id OFFSET 100 LIMIT 1',
    [companyId],
  );

  const builds = {
    before: await startService('main-api', env, BEFORE),
    after: await startService('main-api', env),
  };
  running.push(...Object.values(builds));
  const headers = {
    authorization: `Bearer ${key.token({ companyId, subject: `user:${credentials.userId}` })}`,
  };
  const cases = { detail: `/v1/projects/${projectId}`, list: '/v1/projects?perPage=50' };
  const rounds = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, path] of Object.entries(cases)) {
      // Alternating which build goes first, so neither always meets a warmer machine.
      const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const build of order) {
        const result = await autocannon({
          url: `${builds[build].url}${path}`,
          headers,
          connections: CONNECTIONS,
          duration: SECONDS,
        });
        if (result.non2xx + result.errors + result.timeouts > 0) {
          throw new Error(
            `${build} ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
          );
        }
        const key = `${name}.${build}`;
        (rounds[key] ??= []).push({ rps: Math.round(result.requests.average), p99: result.latency.p99 });
        say(
          `round ${round + 1} ${key}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
        );
      }
    }
  }
  const summary = Object.fromEntries(
    Object.keys(cases).map((name) => {
      const before = median(rounds[`${name}.before`].map((r) => r.rps));
      const after = median(rounds[`${name}.after`].map((r) => r.rps));
      return [
        name,
        {
          before_rps: before,
          after_rps: after,
          ratio: +(after / before).toFixed(2),
          p99_before_ms: median(rounds[`${name}.before`].map((r) => r.p99)),
          p99_after_ms: median(rounds[`${name}.after`].map((r) => r.p99)),
        },
      ];
    }),
  );
  console.log(JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, summary, rounds }, null, 2));
} finally {
  for (const service of running) {
    await service.stop();
  }
  await database.drop();
}
