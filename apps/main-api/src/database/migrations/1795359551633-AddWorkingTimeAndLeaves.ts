import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddWorkingTimeAndLeaves1795359551633 implements MigrationInterface {
  name = 'AddWorkingTimeAndLeaves1795359551633';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Hand-written: the leave overlap exclusion compares integer ids with `=` in a GiST index.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public`);
    await queryRunner.query(
      `CREATE TABLE "user_leaves" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "user_id" integer NOT NULL, "leave_type_id" smallint NOT NULL, "start" TIMESTAMP WITH TIME ZONE NOT NULL, "end" TIMESTAMP WITH TIME ZONE NOT NULL, "all_day" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "user_leaves_range_check" CHECK ("start" < "end"), CONSTRAINT "user_leaves_no_overlap" EXCLUDE USING gist ("company_id" WITH =, "user_id" WITH =, tstzrange("start", "end", '[]') WITH &&), CONSTRAINT "user_leaves_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "user_leaves_company_user_start_idx" ON "user_leaves"  ("company_id", "user_id", "start") `,
    );
    await queryRunner.query(
      `CREATE TABLE "working_time_entries" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "user_id" integer NOT NULL, "day_of_week" smallint NOT NULL, "daily_hours" numeric(4,2) NOT NULL, "start_at" TIME NOT NULL, "end_at" TIME NOT NULL, "break_time" numeric(4,2) NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "working_time_entries_span_check" CHECK ("start_at" < "end_at"), CONSTRAINT "working_time_entries_hours_check" CHECK ("daily_hours" BETWEEN 0 AND 24 AND "break_time" BETWEEN 0 AND 24), CONSTRAINT "working_time_entries_day_check" CHECK ("day_of_week" BETWEEN 0 AND 6), CONSTRAINT "working_time_entries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "working_time_entries_company_idx" ON "working_time_entries"  ("company_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "working_time_entries_user_day_key" ON "working_time_entries"  ("user_id", "day_of_week") `,
    );
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_leave_type_id_fkey" FOREIGN KEY ("leave_type_id") REFERENCES "leave_types"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" ADD CONSTRAINT "working_time_entries_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" ADD CONSTRAINT "working_time_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" DROP CONSTRAINT "working_time_entries_user_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" DROP CONSTRAINT "working_time_entries_company_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_leave_type_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."working_time_entries_user_day_key"`);
    await queryRunner.query(`DROP INDEX "main_api"."working_time_entries_company_idx"`);
    await queryRunner.query(`DROP TABLE "working_time_entries"`);
    await queryRunner.query(`DROP INDEX "main_api"."user_leaves_company_user_start_idx"`);
    await queryRunner.query(`DROP TABLE "user_leaves"`);
  }
}
