// `npm start`: everything a new user needs on one machine. Without DATABASE_URL an embedded
// PostgreSQL starts (data in .data/postgres, port 54320 so it never collides with a system server);
// then the three schemas are migrated, a demo company is provisioned once and the three services
// run with readable logs until Ctrl-C, which stops them and the database cleanly.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { ensureDatabase } from '../postgres/ensure-database.mjs';
import { localWebhookAllowedOrigins } from './webhook-origin.mjs';

// The V8 settings the services run with in their image (docker/Dockerfile NODE_OPTIONS).
const SERVICE_NODE_FLAGS = ['--max-semi-space-size=48'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = join(root, '.data');
// The demo credentials of the database this start serves, for the curl sessions (tools/local/*.sh);
// each database's own copy is kept beside it, named by host, port and database (never the password),
// so switching DATABASE_URL never shows the credentials of another database.
const credentialsFile = join(dataDir, 'demo-credentials.json');
const DEMO_COMPANY = 'Demo Agency';

const services = [
  { name: 'main-api', port: Number(process.env.MAIN_API_PORT ?? 3000) },
  { name: 'planner', port: Number(process.env.PLANNER_PORT ?? 3001) },
  { name: 'integrations', port: Number(process.env.INTEGRATIONS_PORT ?? 3002) },
];
const entry = (app, file) => join(root, 'dist', 'apps', app, 'apps', app, 'src', file);

const children = new Set();
let database;
let stopping = false;

function say(message) {
  process.stdout.write(`[start] ${message}\n`);
}

async function main() {
  mkdirSync(dataDir, { recursive: true });
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const port = Number(process.env.EMBEDDED_POSTGRES_PORT ?? 54320);
    say(`no DATABASE_URL: starting embedded PostgreSQL on 127.0.0.1:${port} (data in .data/postgres)`);
    database = await startDatabaseProcess(join(dataDir, 'postgres'), port);
    await ensureDatabase(database.url, 'agency_platform');
    databaseUrl = database.url.replace(/\/postgres$/, '/agency_platform');
  } else {
    say('using the database at DATABASE_URL');
  }
  const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: process.env.NODE_ENV ?? 'development' };
  if (!env.JWT_PRIVATE_KEY && !env.JWT_PRIVATE_KEY_FILE) {
    env.JWT_PRIVATE_KEY_FILE = ensureLocalSigningKey();
  }
  env.INTEGRATIONS_ENCRYPTION_KEY ??= ensureLocalKey(
    'integrations-encryption-key',
    'the integrations encryption key',
  );
  // Shared by main-api, the planner and integrations: only integrations may mark a change's origin
  // or watch the change feeds.
  env.CHANGE_ORIGIN_KEY ??= ensureLocalKey(
    'change-origin-key',
    'the key integrations signs X-Change-Origin with',
  );
  // Local trials: outbound webhooks may go to the local receiver (plain http, its port only).
  env.SUBSCRIPTION_HTTP_ALLOWED_ORIGINS = localWebhookAllowedOrigins(env);
  // A frontend dev server (Vite's default port) may call the three services from the browser; set
  // CORS_ALLOWED_ORIGINS to change the list, or to nothing (CORS_ALLOWED_ORIGINS=) to turn CORS off.
  env.CORS_ALLOWED_ORIGINS ??= 'http://localhost:5173,http://127.0.0.1:5173';
  // main-api's own URL as the issuer, so OAuth libraries discover it (RFC 8414) and jose checks `iss`.
  env.JWT_ISSUER ??= `http://localhost:${services[0].port}`;

  for (const service of services) {
    await run(process.execPath, [entry(service.name, 'migrate.js')], env);
  }
  await provisionDemoCompany(env, databaseUrl);

  const mainApiUrl = `http://127.0.0.1:${services[0].port}`;
  for (const service of services) {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, entry(service.name, 'main.js')], {
      env: {
        ...env,
        PORT: String(service.port),
        MAIN_API_URL: env.MAIN_API_URL ?? mainApiUrl,
        // Integrations follows the planner's change feed too (subscriptions to allocations).
        PLANNER_URL: env.PLANNER_URL ?? `http://127.0.0.1:${services[1].port}`,
        LOG_PRETTY: env.LOG_PRETTY ?? 'true',
      },
      stdio: 'inherit',
    });
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (!stopping) {
        say(`${service.name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping everything`);
        void shutdown(1);
      }
    });
  }

  await Promise.all(services.map((service) => waitUntilReady(service)));
  say('all services are ready:');
  for (const service of services) {
    say(
      `  ${service.name.padEnd(13)} http://localhost:${service.port}   docs: http://localhost:${service.port}/docs`,
    );
  }
  say(
    `get a token: curl -s -X POST -u "$API_KEY:$CLIENT_SECRET" 'http://localhost:${services[0].port}/v1/oauth/token?grant_type=client_credentials'`,
  );
  say(
    `outbound webhooks over plain http go to ${env.SUBSCRIPTION_HTTP_ALLOWED_ORIGINS} only: node tools/local/webhook-receiver.mjs`,
  );
  say('press Ctrl-C to stop');
}

/** The key main-api signs access tokens with, made once per checkout (never committed: .data/). */
function ensureLocalSigningKey() {
  const file = join(dataDir, 'jwt-private-key.pem');
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    say('generated the access-token signing key in .data/jwt-private-key.pem');
  }
  return file;
}

/** A 32-byte key (base64) kept in .data/<name> beside the signing key, made on first start. */
function ensureLocalKey(name, description) {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    say(`generated ${description} in .data/${name}`);
  }
  return readFileSync(file, 'utf8').trim();
}

function startDatabaseProcess(directory, port) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'tools', 'postgres', 'run-embedded.mjs'), directory, String(port)],
      {
        detached: true,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const stopped = new Promise((done) => child.once('exit', done));
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with code ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      resolve({
        url: JSON.parse(line).url,
        async stop() {
          child.kill('SIGTERM');
          await stopped;
        },
      });
    });
  });
}

/** `.data/demo-credentials.<host>-<port>-<database>.json`: one database's demo credentials. */
function credentialsFileOf(databaseUrl) {
  const url = new URL(databaseUrl);
  const key = `${url.hostname}-${url.port || '5432'}-${decodeURIComponent(url.pathname.slice(1))}`;
  return join(dataDir, `demo-credentials.${key.replace(/[^\w.-]/g, '_')}.json`);
}

/**
 * Makes `.data/demo-credentials.json` this database's credentials, or removes it when they are not
 * known here; a file that is no database's copy (written before copies were kept per database) is
 * kept as demo-credentials.previous.json rather than lost.
 */
function useCredentials(content) {
  if (existsSync(credentialsFile)) {
    const current = readFileSync(credentialsFile, 'utf8');
    const isCopy = readdirSync(dataDir).some(
      (name) =>
        /^demo-credentials\..+\.json$/.test(name) &&
        name !== 'demo-credentials.previous.json' &&
        readFileSync(join(dataDir, name), 'utf8') === current,
    );
    if (!isCopy && current !== content) {
      renameSync(credentialsFile, join(dataDir, 'demo-credentials.previous.json'));
      say('kept the earlier .data/demo-credentials.json as .data/demo-credentials.previous.json');
    }
  }
  if (content === undefined) {
    rmSync(credentialsFile, { force: true });
  } else {
    writeFileSync(credentialsFile, content, { mode: 0o600 });
  }
}

async function provisionDemoCompany(env, databaseUrl) {
  const output = await run(
    process.execPath,
    [
      entry('main-api', 'provisioning/provision.cli.js'),
      '--company',
      DEMO_COMPANY,
      '--email',
      'demo@demo-agency.example.com',
      '--first-name',
      'Demo',
      '--last-name',
      'Admin',
      '--if-absent',
    ],
    env,
    { capture: true },
  );
  const result = JSON.parse(output);
  const ownFile = credentialsFileOf(databaseUrl);
  if (result.alreadyProvisioned) {
    const known = existsSync(ownFile) ? readFileSync(ownFile, 'utf8') : undefined;
    if (known !== undefined && JSON.parse(known).companyId === result.companyId) {
      useCredentials(known);
      say(
        `demo company "${DEMO_COMPANY}" already provisioned (id ${result.companyId}); its credentials are in ${credentialsFile}`,
      );
    } else {
      useCredentials(undefined);
      say(
        `demo company "${DEMO_COMPANY}" already provisioned (id ${result.companyId}) in this database, by another checkout ` +
          `or before its credentials were kept per database; new ones: npm run -s provision -- --add-client --company-id ${result.companyId}`,
      );
    }
    return;
  }
  const content = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(ownFile, content, { mode: 0o600 });
  useCredentials(content);
  say(`demo company provisioned; these credentials are shown once (a copy is in ${credentialsFile}):`);
  process.stdout.write(content);
}

function run(command, args, env, { capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      code === 0 ? resolve(output) : reject(new Error(`${args[0]} exited with code ${code}`));
    });
  });
}

async function waitUntilReady(service, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const response = await fetch(`http://127.0.0.1:${service.port}/health/ready`, {
        signal: AbortSignal.timeout(2000),
      });
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service.name} was not ready on port ${service.port} within ${timeoutMs / 1000} s`);
}

async function shutdown(exitCode) {
  if (stopping) {
    return;
  }
  stopping = true;
  say('stopping...');
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise((resolve) => {
          const force = setTimeout(() => child.kill('SIGKILL'), 15000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  if (database) {
    await database.stop().catch((error) => say(`could not stop PostgreSQL cleanly: ${error}`));
  }
  say('stopped');
  process.exit(exitCode);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch((error) => {
  say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
