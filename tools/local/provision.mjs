// `npm run -s provision -- <options>`: main-api's provisioning CLI from a checkout, without Nx. Builds
// main-api first only when dist/ lacks the CLI or is older than a source (the compiler's output on
// stderr), then runs the built file with plain node, which prints one JSON document on stdout. Without
// DATABASE_URL it uses the database `npm start` runs (embedded PostgreSQL), when there is one.
// (`-s`: npm prints its own `> agency-platform provision` banner on stdout otherwise.)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js');
/** What the main-api build compiles: its sources, the libraries' and the compiler settings. */
const inputs = ['apps/main-api/src', 'libs', 'tsconfig.base.json', 'apps/main-api/tsconfig.app.json'];

function newestSource(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) {
    return /\.(ts|json)$/.test(path) && !/\.spec\.ts$/.test(path) ? stats.mtimeMs : 0;
  }
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') {
      newest = Math.max(newest, newestSource(join(path, entry)));
    }
  }
  return newest;
}

function run(args, options) {
  const result = spawnSync(process.execPath, args, { cwd: root, ...options });
  if (result.error) {
    throw result.error;
  }
  return result.status ?? 1;
}

function buildIfStale() {
  const builtAt = existsSync(cli) ? statSync(cli).mtimeMs : 0;
  const changedAt = Math.max(...inputs.map((input) => newestSource(join(root, input))));
  if (builtAt >= changedAt) {
    return;
  }
  process.stderr.write(
    `provision: building main-api (${builtAt ? 'dist is older than its sources' : 'not built yet'})...\n`,
  );
  // The build target's two steps (apps/main-api/project.json), their output kept off stdout.
  for (const [bin, config] of [
    ['node_modules/typescript/bin/tsc', 'apps/main-api/tsconfig.app.json'],
    ['node_modules/tsc-alias/dist/bin/index.js', 'apps/main-api/tsconfig.app.json'],
  ]) {
    if (run([join(root, bin), '-p', config], { stdio: ['ignore', 2, 2] }) !== 0) {
      process.stderr.write('provision: the main-api build failed (above)\n');
      process.exit(1);
    }
  }
}

function environment() {
  if (process.env.DATABASE_URL) {
    return process.env;
  }
  if (!existsSync(join(root, '.data', 'postgres'))) {
    return process.env; // the CLI says DATABASE_URL is missing
  }
  const port = process.env.EMBEDDED_POSTGRES_PORT ?? '54320';
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/agency_platform`;
  process.stderr.write(`provision: no DATABASE_URL, using npm start's database (${url})\n`);
  return { ...process.env, DATABASE_URL: url };
}

const argv = process.argv.slice(2);
buildIfStale();
process.exitCode = run([cli, ...argv], { stdio: 'inherit', env: environment() });
