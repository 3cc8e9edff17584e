import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795356275054 implements MigrationInterface {
  name = 'InitialSchema1795356275054';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "external_mappings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "source" character varying(32) NOT NULL, "entity" character varying(40) NOT NULL, "external_id" character varying(255) NOT NULL, "platform_id" integer, "state" character varying(16) NOT NULL DEFAULT 'pending', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "external_mappings_platform_id_check" CHECK ("state" = 'pending' OR "platform_id" IS NOT NULL), CONSTRAINT "external_mappings_state_check" CHECK ("state" IN ('pending', 'complete')), CONSTRAINT "external_mappings_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "external_mappings_platform_idx" ON "external_mappings"  ("company_id", "entity", "platform_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "external_mappings_key" ON "external_mappings"  ("company_id", "source", "entity", "external_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "integrations"."external_mappings_key"`);
    await queryRunner.query(`DROP INDEX "integrations"."external_mappings_platform_idx"`);
    await queryRunner.query(`DROP TABLE "external_mappings"`);
  }
}
