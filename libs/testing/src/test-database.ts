import { randomBytes } from 'node:crypto';
import { createDatabase, databaseUrl, dropDatabase } from '@platform/database';

export interface TestDatabase {
  /** Connection URL of a database that only this test file uses. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file on the server at TEST_DATABASE_URL (set by the Jest
 * global setup: the given server, or an embedded one). Files run in parallel without sharing rows,
 * and `drop()` leaves nothing behind.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const adminUrl = testServerUrl();
  const name = `t_${label
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(5).toString('hex')}`;
  await createDatabase(adminUrl, name);
  return { url: databaseUrl(adminUrl, name), name, drop: () => dropDatabase(adminUrl, name) };
}

export function testServerUrl(): string {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    throw new Error('TEST_DATABASE_URL is not set: run tests through Jest with the workspace preset');
  }
  return adminUrl;
}
