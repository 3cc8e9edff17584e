import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddIdempotencyRecords1795359290584 implements MigrationInterface {
  name = 'AddIdempotencyRecords1795359290584';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_records" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "key" character varying(255) NOT NULL, "request_hash" character(64) NOT NULL, "status_code" smallint, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"  ("created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idempotency_records_company_key_key" ON "idempotency_records"  ("company_id", "key") `,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_company_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "main_api"."idempotency_records_company_key_key"`);
    await queryRunner.query(`DROP INDEX "main_api"."idempotency_records_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_records"`);
  }
}
