import type { QueryRunner } from 'typeorm';

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function ident(name: string): string {
  if (!NAME.test(name)) {
    throw new Error(`row versions: "${name}" is not a plain lower-case name`);
  }
  return `"${name}"`;
}

/**
 * Gives each table a `version` (1 on insert) that PostgreSQL bumps on every UPDATE that changes the
 * row, whatever sent it (TypeORM's save, a bulk UPDATE, a soft delete, a trigger): the version in a
 * resource's ETag (conditional requests, RFC 9110). The trigger sets `OLD.version + 1` whatever the
 * statement wrote, so no writer can set a version of its own; TypeORM's `@VersionColumn` writes the
 * same value and reads it back. Run by a service's migration in its schema (the search path).
 */
export async function enableRowVersions(runner: QueryRunner, tables: readonly string[]): Promise<void> {
  await runner.query(`CREATE OR REPLACE FUNCTION bump_row_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.version := OLD.version + 1;
      RETURN NEW;
    END
    $$`);
  for (const table of tables) {
    await runner.query(`ALTER TABLE ${ident(table)} ADD COLUMN "version" integer NOT NULL DEFAULT 1`);
    await runner.query(
      `CREATE TRIGGER ${ident(`${table}_row_version`)} BEFORE UPDATE ON ${ident(table)} ` +
        'FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION bump_row_version()',
    );
  }
}

/** Undoes `enableRowVersions` for these tables (the function stays while another table uses it). */
export async function disableRowVersions(runner: QueryRunner, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await runner.query(`DROP TRIGGER ${ident(`${table}_row_version`)} ON ${ident(table)}`);
    await runner.query(`ALTER TABLE ${ident(table)} DROP COLUMN "version"`);
  }
}
