import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795356237865 implements MigrationInterface {
  name = 'InitialSchema1795356237865';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Hand-written: the overlap exclusion constraint compares integer ids with `=` inside a GiST
    // index, which needs btree_gist. Trusted extension (PG 13+), so the database owner may create it.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public`);
    await queryRunner.query(
      `CREATE TABLE "allocations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "user_id" integer NOT NULL, "project_id" integer NOT NULL, "from_date" date NOT NULL, "to_date" date NOT NULL, "allocated_hours" numeric(10,2) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "allocations_hours_check" CHECK ("allocated_hours" > 0), CONSTRAINT "allocations_range_check" CHECK ("from_date" < "to_date"), CONSTRAINT "allocations_no_overlap" EXCLUDE USING gist ("company_id" WITH =, "user_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&), CONSTRAINT "allocations_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "allocations_company_user_range_idx" ON "allocations"  ("company_id", "user_id", "from_date", "to_date") `,
    );
    await queryRunner.query(
      `CREATE INDEX "allocations_company_project_idx" ON "allocations"  ("company_id", "project_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "planner"."allocations_company_project_idx"`);
    await queryRunner.query(`DROP INDEX "planner"."allocations_company_user_range_idx"`);
    await queryRunner.query(`DROP TABLE "allocations"`);
  }
}
