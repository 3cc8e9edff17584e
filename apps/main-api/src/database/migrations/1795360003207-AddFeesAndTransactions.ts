import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddFeesAndTransactions1795360003207 implements MigrationInterface {
  name = 'AddFeesAndTransactions1795360003207';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "fees" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "client_id" integer NOT NULL, "name" character varying(200) NOT NULL, "estimate" numeric(14,2) NOT NULL DEFAULT '0', "work_order" character varying(100) NOT NULL DEFAULT '', "description" character varying(2000) NOT NULL DEFAULT '', "frequency" smallint NOT NULL DEFAULT '1', "status" character varying(10) NOT NULL DEFAULT 'active', "estimated_time" numeric(10,2) NOT NULL DEFAULT '0', "start" date, "end" date, "currency_id" smallint NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "fees_period_check" CHECK ("start" IS NULL OR "end" IS NULL OR "start" <= "end"), CONSTRAINT "fees_status_check" CHECK ("status" IN ('active', 'inactive')), CONSTRAINT "fees_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "fees_company_client_idx" ON "fees"  ("company_id", "client_id") `);
    await queryRunner.query(
      `CREATE TABLE "transactions" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "client_id" integer NOT NULL, "date" date NOT NULL, "type" character varying(20) NOT NULL, "total" numeric(14,2) NOT NULL, "currency_change_amount" numeric(14,2) NOT NULL, "exchange" numeric(14,6) NOT NULL, "source_id" smallint NOT NULL, "currency_id" smallint NOT NULL, "receipt_number" character varying(100) NOT NULL, "is_income" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "transactions_type_check" CHECK ("type" IN ('income', 'expense', 'invoice', 'credit_note')), CONSTRAINT "transactions_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "transactions_company_client_date_idx" ON "transactions"  ("company_id", "client_id", "date") `,
    );
    await queryRunner.query(
      `ALTER TABLE "fees" ADD CONSTRAINT "fees_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "fees" ADD CONSTRAINT "fees_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "fees" ADD CONSTRAINT "fees_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" ADD CONSTRAINT "transactions_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" ADD CONSTRAINT "transactions_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" ADD CONSTRAINT "transactions_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "transaction_sources"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" ADD CONSTRAINT "transactions_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions" DROP CONSTRAINT "transactions_currency_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "transactions" DROP CONSTRAINT "transactions_source_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "transactions" DROP CONSTRAINT "transactions_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "transactions" DROP CONSTRAINT "transactions_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "fees" DROP CONSTRAINT "fees_currency_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "fees" DROP CONSTRAINT "fees_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "fees" DROP CONSTRAINT "fees_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."transactions_company_client_date_idx"`);
    await queryRunner.query(`DROP TABLE "transactions"`);
    await queryRunner.query(`DROP INDEX "main_api"."fees_company_client_idx"`);
    await queryRunner.query(`DROP TABLE "fees"`);
  }
}
