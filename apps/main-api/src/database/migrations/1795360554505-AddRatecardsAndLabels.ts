import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddRatecardsAndLabels1795360554505 implements MigrationInterface {
  name = 'AddRatecardsAndLabels1795360554505';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "labels" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(100) NOT NULL, "color" character(7) NOT NULL DEFAULT '#9e9e9e', "model" character varying(20) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "labels_model_check" CHECK ("model" IN ('project', 'user', 'task')), CONSTRAINT "labels_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "labels_company_model_idx" ON "labels"  ("company_id", "model") `);
    await queryRunner.query(
      `CREATE TABLE "ratecards" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "currency_id" smallint NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ratecards_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ratecards_company_idx" ON "ratecards"  ("company_id") `);
    await queryRunner.query(
      `CREATE TABLE "ratecard_prices" ("ratecard_id" integer NOT NULL, "position_id" integer NOT NULL, "company_id" integer NOT NULL, "price" numeric(12,2) NOT NULL, CONSTRAINT "ratecard_prices_price_check" CHECK ("price" >= 0), CONSTRAINT "ratecard_prices_pkey" PRIMARY KEY ("ratecard_id", "position_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "labels" ADD CONSTRAINT "labels_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ratecards" ADD CONSTRAINT "ratecards_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ratecards" ADD CONSTRAINT "ratecards_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ratecard_prices" ADD CONSTRAINT "ratecard_prices_ratecard_id_fkey" FOREIGN KEY ("ratecard_id") REFERENCES "ratecards"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ratecard_prices" ADD CONSTRAINT "ratecard_prices_position_id_fkey" FOREIGN KEY ("position_id") REFERENCES "positions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "ratecard_prices" DROP CONSTRAINT "ratecard_prices_position_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "ratecard_prices" DROP CONSTRAINT "ratecard_prices_ratecard_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "ratecards" DROP CONSTRAINT "ratecards_currency_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "ratecards" DROP CONSTRAINT "ratecards_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "labels" DROP CONSTRAINT "labels_company_id_fkey"`);
    await queryRunner.query(`DROP TABLE "ratecard_prices"`);
    await queryRunner.query(`DROP INDEX "main_api"."ratecards_company_idx"`);
    await queryRunner.query(`DROP TABLE "ratecards"`);
    await queryRunner.query(`DROP INDEX "main_api"."labels_company_model_idx"`);
    await queryRunner.query(`DROP TABLE "labels"`);
  }
}
