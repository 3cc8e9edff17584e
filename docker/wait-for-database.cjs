// `node wait-for-database.cjs <command...>`: waits until PostgreSQL accepts a connection with the
// migration's settings (MIGRATION_DATABASE_URL, else DATABASE_URL), then runs the command and exits
// with its status. For compose, where the database starts at the same time as the migrations and
// podman-compose ignores `depends_on` conditions. The Kubernetes Jobs do not need it (the Job retries).
const { spawn } = require('node:child_process');
const { Client } = require('pg');

const url = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
const deadline = Date.now() + Number(process.env.DATABASE_WAIT_SECONDS || 60) * 1000;
const command = process.argv.slice(2);

async function reachable() {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main() {
  if (!url || command.length === 0) {
    process.stderr.write('usage: DATABASE_URL=postgres://... node wait-for-database.cjs <command...>\n');
    process.exit(2);
  }
  for (;;) {
    const result = await reachable();
    if (result === true) {
      break;
    }
    if (Date.now() > deadline) {
      process.stderr.write(`PostgreSQL still unreachable, giving up: ${result}\n`);
      process.exit(1);
    }
    process.stderr.write(`waiting for PostgreSQL: ${result}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

void main();
