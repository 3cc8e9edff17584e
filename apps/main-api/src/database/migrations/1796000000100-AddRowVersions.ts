import { disableRowVersions, enableRowVersions } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables of main-api's resources (one route answers each by id): their rows get a version. */
export const VERSIONED_TABLES = [
  'brands',
  'clients',
  'contracts',
  'fees',
  'labels',
  'position_categories',
  'positions',
  'products',
  'projects',
  'ratecards',
  'tasks',
  'teams',
  'time_entries',
  'transactions',
  'users',
  'workspaces',
] as const;

// The change feed's trigger (AddChangeFeed) lists the fields a change set (created) or changed
// (updated), never the timestamps; the version changes with every change, so it joins them rather
// than appear in every event.
const LEFT_OUT: readonly [string, string][] = [
  ["'created_at', 'updated_at', 'deleted_at')", "'created_at', 'updated_at', 'deleted_at', 'version')"],
  ["key NOT IN ('created_at', 'updated_at')", "key NOT IN ('created_at', 'updated_at', 'version')"],
];

/** Replaces `record_change()` by an edit of its own definition, as PostgreSQL holds it. */
export async function redefineRecordChange(
  queryRunner: QueryRunner,
  edit: (definition: string) => string,
): Promise<void> {
  const [{ definition }] = (await queryRunner.query(
    `SELECT pg_get_functiondef('record_change'::regproc) AS definition`,
  )) as { definition: string }[];
  const edited = edit(definition);
  if (edited === definition) {
    throw new Error('record_change() does not list the fields it leaves out as expected');
  }
  await queryRunner.query(edited);
}

/**
 * Conditional requests (issue 36): each resource's row carries a `version` that PostgreSQL bumps on
 * every change (`enableRowVersions`); its answers carry it as their ETag's version, and a write's
 * `If-Match` is checked against it under the row's lock. Time entries also get the `updated_at`
 * every other resource has, for lists' `updated_since`.
 */
export class AddRowVersions1796000000100 implements MigrationInterface {
  name = 'AddRowVersions1796000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The one resource without it: lists' `updated_since` reads it (rows until now count as changed now).
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD COLUMN "updated_at" timestamptz NOT NULL DEFAULT now()`,
    );
    await enableRowVersions(queryRunner, VERSIONED_TABLES);
    await redefineRecordChange(queryRunner, (definition) =>
      LEFT_OUT.reduce((text, [without, withVersion]) => text.split(without).join(withVersion), definition),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await redefineRecordChange(queryRunner, (definition) =>
      LEFT_OUT.reduce((text, [without, withVersion]) => text.split(withVersion).join(without), definition),
    );
    await disableRowVersions(queryRunner, VERSIONED_TABLES);
    await queryRunner.query(`ALTER TABLE "time_entries" DROP COLUMN "updated_at"`);
  }
}
