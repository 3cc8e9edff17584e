// Runs once per Jest run (one Nx project): makes TEST_DATABASE_URL point at a Postgres server the
// test files create their own databases on. A given TEST_DATABASE_URL is used as is; without one, an
// embedded PostgreSQL starts on a free port with its data in a temporary folder.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../postgres/embedded-postgres.mjs';

export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL) {
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-pg-'));
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port, persistent: false, durable: false });
  process.env.TEST_DATABASE_URL = server.url;
  globalThis.__EMBEDDED_POSTGRES__ = server;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
