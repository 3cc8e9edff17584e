import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddRatecardDetailsAndClientUsers1795361932140 implements MigrationInterface {
  name = 'AddRatecardDetailsAndClientUsers1795361932140';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "client_id" integer`);
    await queryRunner.query(
      `ALTER TABLE "ratecards" ADD "original_name" character varying(200) NOT NULL DEFAULT ''`,
    );
    // Hand-written: existing ratecards are their own originals.
    await queryRunner.query(`UPDATE "ratecards" SET "original_name" = "name" WHERE "original_name" = ''`);
    await queryRunner.query(`ALTER TABLE "ratecards" ADD "percent" numeric(7,2) NOT NULL DEFAULT '100'`);
    await queryRunner.query(
      `ALTER TABLE "ratecards" ADD "linked_to_base_price" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_client_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "ratecards" DROP COLUMN "linked_to_base_price"`);
    await queryRunner.query(`ALTER TABLE "ratecards" DROP COLUMN "percent"`);
    await queryRunner.query(`ALTER TABLE "ratecards" DROP COLUMN "original_name"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "client_id"`);
  }
}
