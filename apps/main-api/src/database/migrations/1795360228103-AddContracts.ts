import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddContracts1795360228103 implements MigrationInterface {
  name = 'AddContracts1795360228103';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contracts" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "client_id" integer NOT NULL, "currency_id" smallint NOT NULL DEFAULT '1', "user_positions_header_id" integer, "json_integrations" jsonb NOT NULL DEFAULT '{}', "name" character varying(200) NOT NULL, "type" character varying(50) NOT NULL DEFAULT '', "source" character varying(50) NOT NULL DEFAULT '', "status" character varying(30) NOT NULL DEFAULT 'active', "frequency" character varying(30) NOT NULL DEFAULT '', "url" character varying(2000) NOT NULL DEFAULT '', "url_name" character varying(200) NOT NULL DEFAULT '', "start" TIMESTAMP WITH TIME ZONE, "end" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "contracts_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "contracts_company_client_idx" ON "contracts"  ("company_id", "client_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "contract_members" ("contract_id" integer NOT NULL, "user_id" integer NOT NULL, "company_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "contract_members_pkey" PRIMARY KEY ("contract_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "contract_members_user_idx" ON "contract_members"  ("user_id") `);
    await queryRunner.query(
      `ALTER TABLE "contracts" ADD CONSTRAINT "contracts_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contracts" ADD CONSTRAINT "contracts_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contracts" ADD CONSTRAINT "contracts_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contract_members" ADD CONSTRAINT "contract_members_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contract_members" ADD CONSTRAINT "contract_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contract_members" DROP CONSTRAINT "contract_members_user_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "contract_members" DROP CONSTRAINT "contract_members_contract_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "contracts" DROP CONSTRAINT "contracts_currency_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "contracts" DROP CONSTRAINT "contracts_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "contracts" DROP CONSTRAINT "contracts_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."contract_members_user_idx"`);
    await queryRunner.query(`DROP TABLE "contract_members"`);
    await queryRunner.query(`DROP INDEX "main_api"."contracts_company_client_idx"`);
    await queryRunner.query(`DROP TABLE "contracts"`);
  }
}
