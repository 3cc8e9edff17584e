import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddClientsBrandsProducts1795359029188 implements MigrationInterface {
  name = 'AddClientsBrandsProducts1795359029188';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "currencies" ("id" smallint NOT NULL, "code" character(3) NOT NULL, "name" character varying(60) NOT NULL, CONSTRAINT "currencies_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "leave_types" ("id" smallint NOT NULL, "name" character varying(60) NOT NULL, CONSTRAINT "leave_types_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "transaction_sources" ("id" smallint NOT NULL, "name" character varying(60) NOT NULL, CONSTRAINT "transaction_sources_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "clients" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "email" character varying(254), "phone" character varying(50), "address" character varying(500), "tax_id" character varying(50), "currency_id" smallint NOT NULL DEFAULT '1', "archived" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "clients_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "clients_company_name_idx" ON "clients"  ("company_id", "name") `);
    await queryRunner.query(
      `CREATE TABLE "brands" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "client_id" integer NOT NULL, "name" character varying(200) NOT NULL, "description" character varying(2000), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "brands_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "brands_company_client_idx" ON "brands"  ("company_id", "client_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "products" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "client_id" integer NOT NULL, "brand_id" integer NOT NULL, "name" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "products_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "products_company_brand_idx" ON "products"  ("company_id", "brand_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "products_company_client_idx" ON "products"  ("company_id", "client_id") `,
    );
    // Hand-written: the global reference lists of docs/spec/decisions.md §9, seeded before anything refers to them.
    await queryRunner.query(
      `INSERT INTO "currencies" ("id", "code", "name") VALUES (1, 'USD', 'US dollar'), (2, 'EUR', 'Euro'), (3, 'GBP', 'Pound sterling'), (4, 'ARS', 'Argentine peso'), (5, 'MXN', 'Mexican peso'), (6, 'CLP', 'Chilean peso'), (7, 'COP', 'Colombian peso'), (8, 'BRL', 'Brazilian real'), (9, 'PEN', 'Peruvian sol'), (10, 'UYU', 'Uruguayan peso')`,
    );
    await queryRunner.query(
      `INSERT INTO "leave_types" ("id", "name") VALUES (1, 'Vacation'), (2, 'Sick leave'), (3, 'Personal'), (4, 'Parental'), (5, 'Unpaid'), (6, 'Other')`,
    );
    await queryRunner.query(
      `INSERT INTO "transaction_sources" ("id", "name") VALUES (1, 'Manual'), (2, 'Bank import'), (3, 'Invoice'), (4, 'Integration')`,
    );
    await queryRunner.query(
      `ALTER TABLE "companies" ADD CONSTRAINT "companies_base_currency_id_fkey" FOREIGN KEY ("base_currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "clients" ADD CONSTRAINT "clients_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "clients" ADD CONSTRAINT "clients_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "brands" ADD CONSTRAINT "brands_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "brands" ADD CONSTRAINT "brands_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "products" ADD CONSTRAINT "products_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "products" ADD CONSTRAINT "products_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "products" ADD CONSTRAINT "products_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "products" DROP CONSTRAINT "products_brand_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "products" DROP CONSTRAINT "products_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "products" DROP CONSTRAINT "products_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "brands" DROP CONSTRAINT "brands_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "brands" DROP CONSTRAINT "brands_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "clients" DROP CONSTRAINT "clients_currency_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "clients" DROP CONSTRAINT "clients_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "companies" DROP CONSTRAINT "companies_base_currency_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."products_company_client_idx"`);
    await queryRunner.query(`DROP INDEX "main_api"."products_company_brand_idx"`);
    await queryRunner.query(`DROP TABLE "products"`);
    await queryRunner.query(`DROP INDEX "main_api"."brands_company_client_idx"`);
    await queryRunner.query(`DROP TABLE "brands"`);
    await queryRunner.query(`DROP INDEX "main_api"."clients_company_name_idx"`);
    await queryRunner.query(`DROP TABLE "clients"`);
    await queryRunner.query(`DROP TABLE "transaction_sources"`);
    await queryRunner.query(`DROP TABLE "leave_types"`);
    await queryRunner.query(`DROP TABLE "currencies"`);
  }
}
