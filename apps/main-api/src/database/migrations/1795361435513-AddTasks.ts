import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddTasks1795361435513 implements MigrationInterface {
  name = 'AddTasks1795361435513';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tasks" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "project_id" integer NOT NULL, "name" character varying(300) NOT NULL, "description" text NOT NULL DEFAULT '', "status" character varying(20) NOT NULL DEFAULT 'nueva', "assignee_id" integer, "start" date, "end" date, "estimated_time" numeric(10,2) NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "tasks_status_check" CHECK ("status" IN ('nueva', 'en_proceso', 'estancada', 'finalizada')), CONSTRAINT "tasks_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "tasks_company_assignee_idx" ON "tasks"  ("company_id", "assignee_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "tasks_company_project_idx" ON "tasks"  ("company_id", "project_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "task_attachments" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "task_id" integer NOT NULL, "source" character varying(20) NOT NULL, "filename" character varying(2000) NOT NULL, "original_name" character varying(500) NOT NULL, "size" bigint NOT NULL, "available" boolean NOT NULL DEFAULT true, "session_token" character varying(2000), "user_id" integer, "discussions_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "task_attachments_source_check" CHECK ("source" IN ('google_drive', 'dropbox', 'onedrive')), CONSTRAINT "task_attachments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "task_attachments_task_idx" ON "task_attachments"  ("company_id", "task_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD CONSTRAINT "tasks_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD CONSTRAINT "tasks_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "task_attachments" ADD CONSTRAINT "task_attachments_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "task_attachments" DROP CONSTRAINT "task_attachments_task_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP CONSTRAINT "tasks_assignee_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP CONSTRAINT "tasks_project_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "tasks" DROP CONSTRAINT "tasks_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."task_attachments_task_idx"`);
    await queryRunner.query(`DROP TABLE "task_attachments"`);
    await queryRunner.query(`DROP INDEX "main_api"."tasks_company_project_idx"`);
    await queryRunner.query(`DROP INDEX "main_api"."tasks_company_assignee_idx"`);
    await queryRunner.query(`DROP TABLE "tasks"`);
  }
}
