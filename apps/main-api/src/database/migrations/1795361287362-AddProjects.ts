import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddProjects1795361287362 implements MigrationInterface {
  name = 'AddProjects1795361287362';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "projects" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "client_id" integer NOT NULL, "pm_id" integer, "created_by" integer, "template_id" integer, "brand_id" integer, "product_id" integer, "fee_id" integer, "contract_id" integer, "user_positions_header_id" integer, "name" character varying(200) NOT NULL, "brief" text NOT NULL DEFAULT '', "health" smallint NOT NULL DEFAULT '1', "status" character varying(20) NOT NULL DEFAULT 'active', "start" date, "end" date, "estimated_time" numeric(12,2) NOT NULL DEFAULT '0', "archived" boolean NOT NULL DEFAULT false, "billable" boolean NOT NULL DEFAULT true, "income_type" character varying(20), "estimated" numeric(14,2), "labels" integer array NOT NULL DEFAULT '{}', "estimated_by_position" boolean NOT NULL DEFAULT false, "estimation_by_categories" boolean NOT NULL DEFAULT false, "estimated_by_hourly_rates" boolean NOT NULL DEFAULT false, "exchange" numeric(14,6), "currency_change_amount" numeric(14,2), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "projects_one_estimation_mode_check" CHECK (NOT ("estimated_by_position" AND "estimation_by_categories")), CONSTRAINT "projects_income_type_check" CHECK ("income_type" IS NULL OR "income_type" IN ('fee', 'one_time', 'hourly_rate', 'contract')), CONSTRAINT "projects_health_check" CHECK ("health" BETWEEN 1 AND 4), CONSTRAINT "projects_status_check" CHECK ("status" IN ('active', 'finished', 'suspended')), CONSTRAINT "projects_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "projects_company_pm_idx" ON "projects"  ("company_id", "pm_id") `);
    await queryRunner.query(
      `CREATE INDEX "projects_company_status_idx" ON "projects"  ("company_id", "status") `,
    );
    await queryRunner.query(
      `CREATE INDEX "projects_company_client_idx" ON "projects"  ("company_id", "client_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "project_positions" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "project_id" integer NOT NULL, "position_id" integer NOT NULL, "estimated_hours" numeric(12,2) NOT NULL DEFAULT '0', "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "project_positions_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "project_positions_project_position_key" ON "project_positions"  ("project_id", "position_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "project_categories" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "project_id" integer NOT NULL, "category_id" integer NOT NULL, "estimated_hours" numeric(12,2) NOT NULL DEFAULT '0', "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "project_categories_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "project_categories_project_category_key" ON "project_categories"  ("project_id", "category_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_pm_id_fkey" FOREIGN KEY ("pm_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_fee_id_fkey" FOREIGN KEY ("fee_id") REFERENCES "fees"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "projects_ratecard_id_fkey" FOREIGN KEY ("user_positions_header_id") REFERENCES "ratecards"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_positions" ADD CONSTRAINT "project_positions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_positions" ADD CONSTRAINT "project_positions_position_id_fkey" FOREIGN KEY ("position_id") REFERENCES "positions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_categories" ADD CONSTRAINT "project_categories_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_categories" ADD CONSTRAINT "project_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "position_categories"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "project_categories" DROP CONSTRAINT "project_categories_category_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_categories" DROP CONSTRAINT "project_categories_project_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_positions" DROP CONSTRAINT "project_positions_position_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_positions" DROP CONSTRAINT "project_positions_project_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_ratecard_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_contract_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_fee_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_product_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_brand_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_pm_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "projects_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."project_categories_project_category_key"`);
    await queryRunner.query(`DROP TABLE "project_categories"`);
    await queryRunner.query(`DROP INDEX "main_api"."project_positions_project_position_key"`);
    await queryRunner.query(`DROP TABLE "project_positions"`);
    await queryRunner.query(`DROP INDEX "main_api"."projects_company_client_idx"`);
    await queryRunner.query(`DROP INDEX "main_api"."projects_company_status_idx"`);
    await queryRunner.query(`DROP INDEX "main_api"."projects_company_pm_idx"`);
    await queryRunner.query(`DROP TABLE "projects"`);
  }
}
