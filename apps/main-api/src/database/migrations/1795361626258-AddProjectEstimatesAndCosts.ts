import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddProjectEstimatesAndCosts1795361626258 implements MigrationInterface {
  name = 'AddProjectEstimatesAndCosts1795361626258';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "project_estimates" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "project_id" integer NOT NULL, "title" character varying(300) NOT NULL, "cost" numeric(14,2) NOT NULL, "datetime" date NOT NULL, "currency_id" smallint NOT NULL DEFAULT '1', "fee_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "project_estimates_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "project_estimates_company_project_idx" ON "project_estimates"  ("company_id", "project_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "project_costs" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "project_id" integer NOT NULL, "title" character varying(300) NOT NULL, "cost" numeric(14,2) NOT NULL, "datetime" date NOT NULL, "label_id" integer, "project_estimate_id" integer, "id_project_history" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "project_costs_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "project_costs_company_project_idx" ON "project_costs"  ("company_id", "project_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "project_estimates" ADD CONSTRAINT "project_estimates_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_estimates" ADD CONSTRAINT "project_estimates_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_estimates" ADD CONSTRAINT "project_estimates_fee_id_fkey" FOREIGN KEY ("fee_id") REFERENCES "fees"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_costs" ADD CONSTRAINT "project_costs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_costs" ADD CONSTRAINT "project_costs_label_id_fkey" FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_costs" ADD CONSTRAINT "project_costs_project_estimate_id_fkey" FOREIGN KEY ("project_estimate_id") REFERENCES "project_estimates"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "project_costs" DROP CONSTRAINT "project_costs_project_estimate_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "project_costs" DROP CONSTRAINT "project_costs_label_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "project_costs" DROP CONSTRAINT "project_costs_project_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "project_estimates" DROP CONSTRAINT "project_estimates_fee_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_estimates" DROP CONSTRAINT "project_estimates_currency_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_estimates" DROP CONSTRAINT "project_estimates_project_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "main_api"."project_costs_company_project_idx"`);
    await queryRunner.query(`DROP TABLE "project_costs"`);
    await queryRunner.query(`DROP INDEX "main_api"."project_estimates_company_project_idx"`);
    await queryRunner.query(`DROP TABLE "project_estimates"`);
  }
}
