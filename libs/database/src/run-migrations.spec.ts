import { randomBytes } from 'node:crypto';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { createDatabase, databaseUrl, dropDatabase } from './database-admin';
import { constraintViolationOf, PG_UNIQUE_VIOLATION } from './database-errors';
import { pendingSchemaChanges } from './migration-cli';
import { runMigrations } from './run-migrations';

class CreateDays1700000000000 implements MigrationInterface {
  name = 'CreateDays1700000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Slow on purpose, so concurrent runners really overlap.
    await queryRunner.query('SELECT pg_sleep(0.2)');
    await queryRunner.query(
      'CREATE TABLE "days" ("id" SERIAL PRIMARY KEY, "day" date NOT NULL, CONSTRAINT "days_day_key" UNIQUE ("day"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "days"');
  }
}

// This lib sits below @platform/testing, so it makes its own per-test database with the same helpers.
const adminUrl = process.env.TEST_DATABASE_URL ?? '';

describe('runMigrations', () => {
  let database: { url: string; name: string };
  const options = () =>
    buildDataSourceOptions({
      url: database.url,
      schema: 'sample',
      applicationName: 'database-spec',
      entities: [],
      migrations: [CreateDays1700000000000],
    });

  beforeEach(async () => {
    const name = `t_database_${randomBytes(5).toString('hex')}`;
    await createDatabase(adminUrl, name);
    database = { name, url: databaseUrl(adminUrl, name) };
  });

  afterEach(() => dropDatabase(adminUrl, database.name));

  it('creates the schema, applies pending migrations once, and then finds nothing to do', async () => {
    await expect(runMigrations(options())).resolves.toEqual({
      schema: 'sample',
      applied: ['CreateDays1700000000000'],
    });
    await expect(runMigrations(options())).resolves.toEqual({ schema: 'sample', applied: [] });
  });

  it('lets exactly one of several concurrent runners migrate', async () => {
    const reports = await Promise.all([
      runMigrations(options()),
      runMigrations(options()),
      runMigrations(options()),
    ]);

    expect(reports.flatMap((report) => report.applied)).toEqual(['CreateDays1700000000000']);
  });

  it('keeps the migrations table in the service schema and reports no drift without entities', async () => {
    await runMigrations(options());
    const dataSource = await new DataSource(options()).initialize();
    try {
      const tables: { table_name: string }[] = await dataSource.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'sample' ORDER BY table_name",
      );
      expect(tables.map((table) => table.table_name)).toEqual(['days', 'migrations']);
    } finally {
      await dataSource.destroy();
    }
    await expect(pendingSchemaChanges(options())).resolves.toEqual({ up: [], down: [] });
  });

  it('reads dates as calendar-day strings and names violated constraints', async () => {
    await runMigrations(options());
    const dataSource = await new DataSource(options()).initialize();
    try {
      await dataSource.query("INSERT INTO days (day) VALUES ('2026-03-29')");
      const [row] = await dataSource.query<{ day: unknown }[]>('SELECT day FROM days');
      expect(row.day).toBe('2026-03-29');

      const failure: unknown = await dataSource
        .query("INSERT INTO days (day) VALUES ('2026-03-29')")
        .catch((error: unknown) => error);
      expect(constraintViolationOf(failure)).toEqual({
        code: PG_UNIQUE_VIOLATION,
        constraint: 'days_day_key',
      });
      expect(constraintViolationOf(new Error('other'))).toBeUndefined();
    } finally {
      await dataSource.destroy();
    }
  });
});
