import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** A PgBouncer of a test's own, in front of the test server. */
export interface TestPgBouncer {
  /** The URL of `database` through the pooler, as `user` (which must be one of `users`). */
  url(database: string, user: string): string;
  stop(): Promise<void>;
}

/** Debian's pgbouncer (CI installs it in .ci/run), or PGBOUNCER_PATH. Never skipped when missing. */
function pgBouncerPath(): string {
  const candidates = [process.env.PGBOUNCER_PATH, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) {
    throw new Error(
      'The PgBouncer test needs pgbouncer and found none: install it with `apt-get install -y pgbouncer` ' +
        '(Debian/Ubuntu) or set PGBOUNCER_PATH.',
    );
  }
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts PgBouncer in transaction mode in front of the server of `serverUrl`: every database, the
 * given login roles (trust, as the test server), at most `serverConnections` server connections per
 * database and role, so clients share them transaction by transaction. It drops the startup
 * parameters it cannot forward (`options`, `statement_timeout`), as a deployment behind it must
 * (README, "Behind PgBouncer in transaction mode").
 */
export async function startTestPgBouncer(
  serverUrl: string,
  users: string[],
  serverConnections = 2,
): Promise<TestPgBouncer> {
  const executable = pgBouncerPath();
  const server = new URL(serverUrl);
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'pgbouncer-'));
  // PgBouncer refuses to run as root; CI runs as root, so it drops to nobody (on every Linux, unlike
  // a postgres user), who must read and write here.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await chmod(directory, 0o777);
  }
  await writeFile(join(directory, 'users.txt'), users.map((user) => `"${user}" ""\n`).join(''));
  await writeFile(
    join(directory, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(directory, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverConnections}`,
      'max_client_conn = 200',
      'ignore_startup_parameters = options, statement_timeout, extra_float_digits',
      // Its console answers the readiness probe below.
      `stats_users = ${users.join(', ')}`,
      `logfile = ${join(directory, 'pgbouncer.log')}`,
      `pidfile = ${join(directory, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const args = [...(asRoot ? ['-u', 'nobody'] : []), join(directory, 'pgbouncer.ini')];
  const child: ChildProcess = spawn(executable, args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = (database: string, user: string) =>
    `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await gone;
    }
    await rm(directory, { recursive: true, force: true });
  };
  // Ready when it answers a connection (its own console database needs no server).
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Client({ connectionString: url('pgbouncer', users[0] ?? 'postgres') });
    try {
      await probe.connect();
      await probe.end();
      return { url, stop };
    } catch (error) {
      await probe.end().catch(() => undefined);
      if (exited || Date.now() > deadline) {
        const log = await readFile(join(directory, 'pgbouncer.log'), 'utf8').catch(() => '');
        await stop();
        throw new Error(`PgBouncer did not start (${String(error)}):\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** pgbouncer's version line (`PgBouncer 1.18.0`), for the test's name. */
export function pgBouncerVersion(): string {
  const result = spawnSync(pgBouncerPath(), ['--version'], { encoding: 'utf8' });
  return (result.stdout || result.stderr).split('\n')[0]?.trim() ?? 'PgBouncer';
}
