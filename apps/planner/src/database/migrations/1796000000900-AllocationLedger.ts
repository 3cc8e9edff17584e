import {
  disableRowVersions,
  enableRowLevelSecurity,
  enableRowVersions,
  type RowLevelSecurityPlan,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PLAN: RowLevelSecurityPlan = {
  schema: 'planner',
  runtimeRole: 'planner_runtime',
  tenantTables: ['allocation_days', 'planner_settings'],
  crossCompany: [],
};

// record_change() leaves the row version out of changed_fields, as it leaves out the timestamps: it
// changes with every change.
const LEFT_OUT: readonly [string, string][] = [
  [
    "key NOT IN ('id', 'company_id', 'created_at', 'updated_at')",
    "key NOT IN ('id', 'company_id', 'created_at', 'updated_at', 'version')",
  ],
  ["key NOT IN ('created_at', 'updated_at')", "key NOT IN ('created_at', 'updated_at', 'version')"],
];

/**
 * The planner v2 ledger (issue 37). An allocation says how it books (`mode`: hours per day, a total
 * spread by capacity, or a percent of capacity), whether it is `tentative` or `confirmed`, and
 * carries a row version for If-Match; `allocation_days` holds its hours day by day, written in the
 * allocation's transaction, with the person and status copied so that a day's bookings of one person
 * are one index range. `planner_settings` holds each company's capacity policy.
 *
 * An allocation with no days is not planned yet: the interface's rows from before this migration,
 * and any row the interface's routes change (a trigger forgets the days of a row whose dates, hours,
 * person or status change). The planner plans them when it next reads or books that person, with
 * the person's calendar; v2 writes rewrite the days right after the row, in the same transaction.
 */
export class AllocationLedger1796000000900 implements MigrationInterface {
  name = 'AllocationLedger1796000000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "allocations"
      ADD "status" character varying(16) NOT NULL DEFAULT 'confirmed',
      ADD "mode" character varying(24) NOT NULL DEFAULT 'total_hours',
      ADD "hours_per_day" numeric(5,2),
      ADD "percent" numeric(5,2),
      ADD "note" character varying(2000),
      ADD "billable" boolean NOT NULL DEFAULT true,
      ADD "task_id" integer,
      ADD "confirmed_by_user_id" integer,
      ADD "confirmed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_status_check" CHECK ("status" IN ('tentative', 'confirmed'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_mode_check" CHECK (("mode" = 'total_hours' AND "hours_per_day" IS NULL AND "percent" IS NULL) OR ("mode" = 'hours_per_day' AND "hours_per_day" > 0 AND "hours_per_day" <= 24 AND "percent" IS NULL) OR ("mode" = 'percent_of_capacity' AND "percent" > 0 AND "percent" <= 100 AND "hours_per_day" IS NULL))`,
    );
    // A v2 allocation may be a single day; the interface's own rule (from before to) stays in its code.
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_range_check"`);
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_range_check" CHECK ("from_date" <= "to_date")`,
    );
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_hours_check"`);
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_hours_check" CHECK ("allocated_hours" >= 0)`,
    );
    await enableRowVersions(queryRunner, ['allocations']);
    const [{ definition }] = (await queryRunner.query(
      `SELECT pg_get_functiondef('record_change'::regproc) AS definition`,
    )) as { definition: string }[];
    const edited = LEFT_OUT.reduce((text, [from, to]) => text.replace(from, to), definition);
    if (edited === definition) {
      throw new Error('record_change() does not list the fields it leaves out as expected');
    }
    await queryRunner.query(edited);

    await queryRunner.query(
      `CREATE TABLE "allocation_days" ("company_id" integer NOT NULL, "allocation_id" uuid NOT NULL, "day" date NOT NULL, "user_id" integer NOT NULL, "status" character varying(16) NOT NULL, "hours" numeric(5,2) NOT NULL, "pinned" boolean NOT NULL DEFAULT false, CONSTRAINT "allocation_days_hours_check" CHECK ("hours" >= 0 AND "hours" <= 24), CONSTRAINT "allocation_days_status_check" CHECK ("status" IN ('tentative', 'confirmed')), CONSTRAINT "allocation_days_pkey" PRIMARY KEY ("allocation_id", "day"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "allocation_days_person_idx" ON "allocation_days" ("company_id", "user_id", "day") `,
    );
    await queryRunner.query(
      `ALTER TABLE "allocation_days" ADD CONSTRAINT "allocation_days_allocation_fkey" FOREIGN KEY ("allocation_id") REFERENCES "allocations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "planner_settings" ("company_id" integer NOT NULL, "capacity_policy" character varying(8) NOT NULL DEFAULT 'warn', "count_tentative" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "planner_settings_policy_check" CHECK ("capacity_policy" IN ('reject', 'warn', 'allow')), CONSTRAINT "planner_settings_pkey" PRIMARY KEY ("company_id"))`,
    );
    await enableRowVersions(queryRunner, ['planner_settings']);
    await enableRowLevelSecurity(queryRunner, PLAN);
    // The interface's routes change rows without planning days: their days are forgotten, and
    // planned again when the planner next needs them. v2 writes rewrite them after the row.
    await queryRunner.query(`CREATE FUNCTION forget_allocation_days() RETURNS trigger LANGUAGE plpgsql
      SET search_path FROM CURRENT AS $$
      BEGIN
        DELETE FROM allocation_days WHERE allocation_id = NEW.id;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "allocations_forget_days" AFTER UPDATE OF "from_date", "to_date", "allocated_hours", "user_id", "status", "mode", "hours_per_day", "percent" ON "allocations" FOR EACH ROW EXECUTE FUNCTION forget_allocation_days()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "allocations_forget_days" ON "allocations"`);
    await queryRunner.query(`DROP FUNCTION forget_allocation_days()`);
    await disableRowVersions(queryRunner, ['planner_settings']);
    await queryRunner.query(`DROP TABLE "planner_settings"`);
    await queryRunner.query(`DROP TABLE "allocation_days"`);
    const [{ definition }] = (await queryRunner.query(
      `SELECT pg_get_functiondef('record_change'::regproc) AS definition`,
    )) as { definition: string }[];
    await queryRunner.query(LEFT_OUT.reduce((text, [from, to]) => text.replace(to, from), definition));
    await disableRowVersions(queryRunner, ['allocations']);
    await queryRunner.query(
      `DELETE FROM "allocations" WHERE "from_date" >= "to_date" OR "allocated_hours" = 0`,
    );
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_hours_check"`);
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_hours_check" CHECK ("allocated_hours" > 0)`,
    );
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_range_check"`);
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_range_check" CHECK ("from_date" < "to_date")`,
    );
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_mode_check"`);
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_status_check"`);
    await queryRunner.query(`ALTER TABLE "allocations"
      DROP COLUMN "confirmed_at", DROP COLUMN "confirmed_by_user_id", DROP COLUMN "task_id",
      DROP COLUMN "billable", DROP COLUMN "note", DROP COLUMN "percent", DROP COLUMN "hours_per_day",
      DROP COLUMN "mode", DROP COLUMN "status"`);
  }
}
