import { Client } from 'pg';

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function quoted(name: string): string {
  if (!SAFE_NAME.test(name)) {
    throw new Error(`refusing database name "${name}": use lower-case letters, digits and underscores`);
  }
  return `"${name}"`;
}

async function withAdmin(adminUrl: string, work: (client: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function createDatabase(adminUrl: string, name: string): Promise<void> {
  return withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${quoted(name)}`));
}

/** Drops the database even while connections remain (a crashed test may leave some). */
export function dropDatabase(adminUrl: string, name: string): Promise<void> {
  return withAdmin(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`),
  );
}
