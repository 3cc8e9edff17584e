import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MappingLeasesAndGenerations1795433631921 implements MigrationInterface {
  name = 'MappingLeasesAndGenerations1795433631921';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "external_id_generations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "source" character varying(32) NOT NULL, "entity" character varying(40) NOT NULL, "external_id" character varying(255) NOT NULL, "generation" integer NOT NULL DEFAULT '0', CONSTRAINT "external_id_generations_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "external_id_generations_key" ON "external_id_generations"  ("company_id", "source", "entity", "external_id") `,
    );
    await queryRunner.query(`ALTER TABLE "external_mappings" ADD "lease_until" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "external_mappings" DROP COLUMN "lease_until"`);
    await queryRunner.query(`DROP INDEX "integrations"."external_id_generations_key"`);
    await queryRunner.query(`DROP TABLE "external_id_generations"`);
  }
}
