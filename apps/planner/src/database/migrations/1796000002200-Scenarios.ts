import { enableRowLevelSecurity, enableRowVersions, type RowLevelSecurityPlan } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const SCENARIO_TABLES = [
  'scenarios',
  'scenario_placeholders',
  'scenario_allocations',
  'scenario_allocation_days',
  'scenario_removals',
];

/** The live plan's overlap rules, made deferrable so an apply can move many rows in any order. */
const OVERLAPS: readonly [string, string][] = [
  [
    'allocations_no_overlap',
    `EXCLUDE USING gist ("company_id" WITH =, "user_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&)`,
  ],
  [
    'allocations_placeholder_no_overlap',
    `EXCLUDE USING gist ("company_id" WITH =, "placeholder_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&) WHERE ("placeholder_id" IS NOT NULL)`,
  ],
];

const PLAN: RowLevelSecurityPlan = {
  schema: 'planner',
  runtimeRole: 'planner_runtime',
  tenantTables: SCENARIO_TABLES,
  crossCompany: [],
};

/**
 * Scenarios (issue 39): a named draft plan of a company, with its own copy of the allocations, their
 * days and the placeholders, under the live rows' ids, so that every v2 statement reads and writes a
 * scenario as it does the live plan, with the same constraints. The copies have no record_change()
 * trigger: nothing written into a scenario is an event until the scenario is applied, which writes
 * the live tables (and their triggers record the changes as any write does), and is itself one
 * `scenarios` event: the update that marks it applied.
 *
 * The live overlap constraints become DEFERRABLE INITIALLY IMMEDIATE: every statement is checked as
 * before, but an apply, which moves many allocations at once in an order that may cross (two swapped
 * ranges), defers them to its commit after checking the result itself, item by item.
 */

export class Scenarios1796000002200 implements MigrationInterface {
  name = 'Scenarios1796000002200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scenarios" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "name" character varying(100) NOT NULL, "base_scenario_id" uuid, "author_user_id" integer, "status" character varying(16) NOT NULL DEFAULT 'draft', "applied_at" TIMESTAMP WITH TIME ZONE, "applied_by_user_id" integer, "applied_changes" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "scenarios_status_check" CHECK ("status" IN ('draft', 'applied')), CONSTRAINT "scenarios_name_check" CHECK (char_length("name") BETWEEN 1 AND 100), CONSTRAINT "scenarios_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scenarios_company_created_idx" ON "scenarios"  ("company_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "scenario_placeholders" ("company_id" integer NOT NULL, "name" character varying(100) NOT NULL, "position_id" integer, "category_id" integer, "project_id" integer, "label_ids" integer array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "scenario_id" uuid NOT NULL, "id" uuid NOT NULL, "base_version" integer, CONSTRAINT "scenario_placeholders_name_check" CHECK (char_length("name") BETWEEN 1 AND 100), CONSTRAINT "scenario_placeholders_pkey" PRIMARY KEY ("scenario_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scenario_placeholders_company_name_idx" ON "scenario_placeholders"  ("company_id", "scenario_id", "name", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "scenario_allocations" ("company_id" integer NOT NULL, "user_id" integer, "placeholder_id" uuid, "project_id" integer NOT NULL, "from_date" date NOT NULL, "to_date" date NOT NULL, "allocated_hours" numeric(10,2) NOT NULL, "assigned_by_user_id" integer NOT NULL, "email" character varying(254), "status" character varying(16) NOT NULL DEFAULT 'confirmed', "mode" character varying(24) NOT NULL DEFAULT 'total_hours', "hours_per_day" numeric(5,2), "percent" numeric(5,2), "note" character varying(2000), "billable" boolean NOT NULL DEFAULT true, "task_id" integer, "confirmed_by_user_id" integer, "confirmed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "scenario_id" uuid NOT NULL, "id" uuid NOT NULL, "base_version" integer, CONSTRAINT "scenario_allocations_mode_check" CHECK (("mode" = 'total_hours' AND "hours_per_day" IS NULL AND "percent" IS NULL) OR ("mode" = 'hours_per_day' AND "hours_per_day" > 0 AND "hours_per_day" <= 24 AND "percent" IS NULL) OR ("mode" = 'percent_of_capacity' AND "percent" > 0 AND "percent" <= 100 AND "hours_per_day" IS NULL)), CONSTRAINT "scenario_allocations_status_check" CHECK ("status" IN ('tentative', 'confirmed')), CONSTRAINT "scenario_allocations_hours_check" CHECK ("allocated_hours" >= 0), CONSTRAINT "scenario_allocations_range_check" CHECK ("from_date" <= "to_date"), CONSTRAINT "scenario_allocations_assignee_check" CHECK (num_nonnulls("user_id", "placeholder_id") = 1), CONSTRAINT "scenario_allocations_placeholder_no_overlap" EXCLUDE USING gist ("scenario_id" WITH =, "placeholder_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&) WHERE ("placeholder_id" IS NOT NULL), CONSTRAINT "scenario_allocations_no_overlap" EXCLUDE USING gist ("scenario_id" WITH =, "user_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&), CONSTRAINT "scenario_allocations_pkey" PRIMARY KEY ("scenario_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scenario_allocations_company_user_range_idx" ON "scenario_allocations"  ("company_id", "scenario_id", "user_id", "from_date", "to_date") `,
    );
    await queryRunner.query(
      `CREATE TABLE "scenario_allocation_days" ("company_id" integer NOT NULL, "user_id" integer, "placeholder_id" uuid, "status" character varying(16) NOT NULL, "hours" numeric(5,2) NOT NULL, "pinned" boolean NOT NULL DEFAULT false, "scenario_id" uuid NOT NULL, "allocation_id" uuid NOT NULL, "day" date NOT NULL, CONSTRAINT "scenario_allocation_days_status_check" CHECK ("status" IN ('tentative', 'confirmed')), CONSTRAINT "scenario_allocation_days_hours_check" CHECK ("hours" >= 0 AND "hours" <= 24), CONSTRAINT "scenario_allocation_days_pkey" PRIMARY KEY ("scenario_id", "allocation_id", "day"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scenario_allocation_days_placeholder_idx" ON "scenario_allocation_days"  ("company_id", "scenario_id", "placeholder_id", "day") WHERE "placeholder_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "scenario_allocation_days_person_idx" ON "scenario_allocation_days"  ("company_id", "scenario_id", "user_id", "day") `,
    );
    await queryRunner.query(
      `CREATE TABLE "scenario_removals" ("scenario_id" uuid NOT NULL, "entity" character varying(16) NOT NULL, "id" uuid NOT NULL, "company_id" integer NOT NULL, "base_version" integer NOT NULL, CONSTRAINT "scenario_removals_entity_check" CHECK ("entity" IN ('allocation', 'placeholder')), CONSTRAINT "scenario_removals_pkey" PRIMARY KEY ("scenario_id", "entity", "id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_placeholders" ADD CONSTRAINT "scenario_placeholders_scenario_fkey" FOREIGN KEY ("scenario_id") REFERENCES "scenarios"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_allocations" ADD CONSTRAINT "scenario_allocations_scenario_fkey" FOREIGN KEY ("scenario_id") REFERENCES "scenarios"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_allocations" ADD CONSTRAINT "scenario_allocations_placeholder_fkey" FOREIGN KEY ("scenario_id", "placeholder_id") REFERENCES "scenario_placeholders"("scenario_id","id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_allocation_days" ADD CONSTRAINT "scenario_allocation_days_allocation_fkey" FOREIGN KEY ("scenario_id", "allocation_id") REFERENCES "scenario_allocations"("scenario_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_removals" ADD CONSTRAINT "scenario_removals_scenario_fkey" FOREIGN KEY ("scenario_id") REFERENCES "scenarios"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await enableRowVersions(queryRunner, ['scenarios', 'scenario_placeholders', 'scenario_allocations']);
    await enableRowLevelSecurity(queryRunner, PLAN);
    await queryRunner.query(
      `CREATE TRIGGER "scenarios_record_change" AFTER UPDATE OF "status" ON "scenarios" FOR EACH ROW WHEN (NEW."status" = 'applied' AND OLD."status" <> 'applied') EXECUTE FUNCTION record_change('scenarios')`,
    );
    for (const [name, definition] of OVERLAPS) {
      await queryRunner.query(
        `ALTER TABLE "allocations" DROP CONSTRAINT "${name}", ADD CONSTRAINT "${name}" ${definition} DEFERRABLE INITIALLY IMMEDIATE`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, definition] of OVERLAPS) {
      await queryRunner.query(
        `ALTER TABLE "allocations" DROP CONSTRAINT "${name}", ADD CONSTRAINT "${name}" ${definition}`,
      );
    }
    await queryRunner.query(`DELETE FROM "change_events" WHERE "entity" = 'scenarios'`);
    // Dropping the tables drops their policies, version and change triggers and constraints with them.
    await queryRunner.query(
      `ALTER TABLE "scenario_removals" DROP CONSTRAINT "scenario_removals_scenario_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_allocation_days" DROP CONSTRAINT "scenario_allocation_days_allocation_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_allocations" DROP CONSTRAINT "scenario_allocations_placeholder_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_allocations" DROP CONSTRAINT "scenario_allocations_scenario_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "scenario_placeholders" DROP CONSTRAINT "scenario_placeholders_scenario_fkey"`,
    );
    await queryRunner.query(`DROP TABLE "scenario_removals"`);
    await queryRunner.query(`DROP INDEX "planner"."scenario_allocation_days_person_idx"`);
    await queryRunner.query(`DROP INDEX "planner"."scenario_allocation_days_placeholder_idx"`);
    await queryRunner.query(`DROP TABLE "scenario_allocation_days"`);
    await queryRunner.query(`DROP INDEX "planner"."scenario_allocations_company_user_range_idx"`);
    await queryRunner.query(`DROP TABLE "scenario_allocations"`);
    await queryRunner.query(`DROP INDEX "planner"."scenario_placeholders_company_name_idx"`);
    await queryRunner.query(`DROP TABLE "scenario_placeholders"`);
    await queryRunner.query(`DROP INDEX "planner"."scenarios_company_created_idx"`);
    await queryRunner.query(`DROP TABLE "scenarios"`);
  }
}
