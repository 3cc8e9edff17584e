import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddPositions1795359693922 implements MigrationInterface {
  name = 'AddPositions1795359693922';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "position_categories" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "position_categories_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "position_categories_company_idx" ON "position_categories"  ("company_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "positions" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "category_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "positions_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "positions_company_category_idx" ON "positions"  ("company_id", "category_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "position_categories" ADD CONSTRAINT "position_categories_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "positions" ADD CONSTRAINT "positions_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "positions" ADD CONSTRAINT "positions_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "position_categories"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_user_position_id_fkey" FOREIGN KEY ("user_position_id") REFERENCES "positions"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_user_position_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "positions" DROP CONSTRAINT "positions_category_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "positions" DROP CONSTRAINT "positions_company_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "position_categories" DROP CONSTRAINT "position_categories_company_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "main_api"."positions_company_category_idx"`);
    await queryRunner.query(`DROP TABLE "positions"`);
    await queryRunner.query(`DROP INDEX "main_api"."position_categories_company_idx"`);
    await queryRunner.query(`DROP TABLE "position_categories"`);
  }
}
