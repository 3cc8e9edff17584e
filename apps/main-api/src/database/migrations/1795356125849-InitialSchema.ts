import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795356125849 implements MigrationInterface {
  name = 'InitialSchema1795356125849';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "companies" ("id" SERIAL NOT NULL, "name" character varying(200) NOT NULL, "base_currency_id" smallint NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "companies_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_clients" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "api_key" character varying(64) NOT NULL, "secret_hash" character varying(255) NOT NULL, "role_id" smallint NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "api_clients_role_id_check" CHECK ("role_id" BETWEEN 1 AND 6), CONSTRAINT "api_clients_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "api_clients_company_id_idx" ON "api_clients"  ("company_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_clients_api_key_key" ON "api_clients"  ("api_key") `);
    await queryRunner.query(
      `CREATE TABLE "users" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "email" character varying(254) NOT NULL, "first_name" character varying(100) NOT NULL, "last_name" character varying(100) NOT NULL, "role_id" smallint NOT NULL, "password_hash" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "users_role_id_check" CHECK ("role_id" BETWEEN 1 AND 6), CONSTRAINT "users_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "users_company_id_idx" ON "users"  ("company_id") `);
    // Hand-written: e-mail is the password-grant login, unique regardless of case among live users.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_email_lower_key" ON "users" (lower("email")) WHERE "deleted_at" IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "api_clients" DROP CONSTRAINT "api_clients_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."users_email_lower_key"`);
    await queryRunner.query(`DROP INDEX "main_api"."users_company_id_idx"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "main_api"."api_clients_api_key_key"`);
    await queryRunner.query(`DROP INDEX "main_api"."api_clients_company_id_idx"`);
    await queryRunner.query(`DROP TABLE "api_clients"`);
    await queryRunner.query(`DROP TABLE "companies"`);
  }
}
