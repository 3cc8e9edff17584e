import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddTimeEntries1795361524769 implements MigrationInterface {
  name = 'AddTimeEntries1795361524769';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "time_entries" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "user_id" integer NOT NULL, "project_id" integer NOT NULL, "task_id" integer, "user_position_id" integer, "date" date NOT NULL, "hours" numeric(5,2) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "time_entries_hours_check" CHECK ("hours" > 0 AND "hours" <= 24), CONSTRAINT "time_entries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "time_entries_company_user_date_idx" ON "time_entries"  ("company_id", "user_id", "date") `,
    );
    await queryRunner.query(
      `CREATE INDEX "time_entries_company_project_position_idx" ON "time_entries"  ("company_id", "project_id", "user_position_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_position_id_fkey" FOREIGN KEY ("user_position_id") REFERENCES "positions"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_user_position_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_task_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_project_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."time_entries_company_project_position_idx"`);
    await queryRunner.query(`DROP INDEX "main_api"."time_entries_company_user_date_idx"`);
    await queryRunner.query(`DROP TABLE "time_entries"`);
  }
}
