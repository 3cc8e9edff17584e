// Shared by the benchmark scripts: a scratch database, the built services as child processes,
// and access tokens signed with a key generated for the run.
import { spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database for one run; `drop()` removes it whatever state it is in. */
export async function scratchDatabase(prefix) {
  const name = `${prefix}_${Date.now()}`;
  await sql(adminUrl, `CREATE DATABASE "${name}"`);
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: () => sql(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export async function sql(url, text, values) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The V8 settings the services run with in their image (docker/Dockerfile NODE_OPTIONS); the baseline gets them too. */
// BENCH_NODE_FLAGS replaces them, to measure another setting (e.g. BENCH_NODE_FLAGS=--max-semi-space-size=16).
export const SERVICE_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=48')
  .split(' ')
  .filter(Boolean);

const entryPoint = (app, file, checkout = root) => join(checkout, `dist/apps/${app}/apps/${app}/src`, file);

/**
 * Runs one of an app's built commands (e.g. `migrate.js`) to completion. Its output goes to stderr,
 * so a bench's stdout is its JSON alone.
 */
export function runCommand(app, file, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entryPoint(app, file)], {
      env: { ...process.env, ...env },
      stdio: ['inherit', 2, 2],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${app} ${file} exited ${code}`))));
  });
}

/**
 * Starts a built service on a free port and waits until it is ready; `stop()` sends SIGTERM.
 * `checkout`: the build of another checkout (a `git worktree` of an older commit), to compare two.
 */
export async function startService(app, env, checkout = root) {
  // A port chosen before: another service was started knowing it (main-api calls the planner).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // BENCH_PROFILE_DIR=dir: each service writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_PROFILE_DIR
    ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`, `--cpu-prof-name=${app}.cpuprofile`]
    : [];
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, ...profile, entryPoint(app, 'main.js', checkout)],
    {
      // Quotas counted and announced as in production, at a size no bench reaches (issue 36: their
      // cost is part of what the bench measures).
      env: {
        ...process.env,
        QUOTA_REQUESTS_PER_MINUTE: '10000000',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: 'inherit',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const status = await fetch(`${url}/health/ready`)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) {
      return {
        url,
        pid: child.pid,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${app} did not become ready`);
}

/** A signing key for main-api (`JWT_PRIVATE_KEY`) and tokens it accepts. */
export function signingKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { n, e } = publicKey.export({ format: 'jwk' });
  // main-api's kid: the RFC 7638 thumbprint of the public key.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    token({ companyId, roleId = 1, subject = 'user:1' }) {
      const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: 'agency-platform',
        aud: 'agency-platform-api',
        sub: subject,
        company_id: companyId,
        role_id: roleId,
        iat: now,
        exp: now + 3600,
        jti: randomUUID(),
      };
      // Typed as main-api types access tokens (RFC 9068); the services refuse any other typ.
      const input = `${encode({ alg: 'RS256', typ: 'at+jwt', kid })}.${encode(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
    },
  };
}

const CLOCK_TICKS = 100;

/** User + system CPU seconds of a process so far (Linux). */
export async function cpuSeconds(pid) {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the command.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** CPU seconds so far of each PostgreSQL backend serving one database (the services' connections), by pid. */
export async function postgresCpuSeconds(databaseUrl, databaseName) {
  const { rows } = await sql(databaseUrl, 'SELECT pid FROM pg_stat_activity WHERE datname = $1', [
    databaseName,
  ]);
  const byPid = new Map();
  for (const { pid } of rows) {
    byPid.set(pid, await cpuSeconds(pid).catch(() => 0));
  }
  return byPid;
}

/** What the backends alive at the end spent since the start (a backend closed meanwhile is not counted). */
export function postgresCpuSpent(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) {
    total += seconds - (before.get(pid) ?? 0);
  }
  return total;
}

/** Resident set size of a process, in MiB (Linux). */
export async function rssMiB(pid) {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/**
 * Allocations that are not the measured project's: 90 % of other companies, 10 % of other users of
 * `companyId`, never overlapping. Rows `first` to `last` of an endless series, so a run can grow it.
 */
export async function insertOtherAllocations(databaseUrl, companyId, first, last) {
  for (let start = first; start <= last; start += 200_000) {
    await sql(
      databaseUrl,
      `INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id)
       SELECT CASE WHEN g % 10 = 0 THEN $1 ELSE 1000 + g % 100 END, 100000 + g % 20000, 100000 + g,
              DATE '2026-01-01' + g % 700, DATE '2026-01-01' + g % 700 + 1 + g % 30, 1 + g % 40, 1
         FROM generate_series($2::int, $3::int) g`,
      [companyId, start, Math.min(start + 199_999, last)],
    );
  }
  await sql(databaseUrl, 'ANALYZE planner.allocations');
}
