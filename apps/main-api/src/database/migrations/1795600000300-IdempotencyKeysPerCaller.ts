import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: an Idempotency-Key belongs to the caller (the token's subject, `user:<id>` or
 * `client:<id>`) within its company, so two callers of one company who happen to pick the same key
 * never receive each other's stored answer. Records made before this name no caller (''): they
 * match nobody and go with the 24-hour retention.
 */
export class IdempotencyKeysPerCaller1795600000300 implements MigrationInterface {
  name = 'IdempotencyKeysPerCaller1795600000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_records" ADD "subject" character varying(30) NOT NULL DEFAULT ''`,
    );
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "subject" DROP DEFAULT`);
    await queryRunner.query(`DROP INDEX "main_api"."idempotency_records_company_key_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idempotency_records_caller_key_key" ON "idempotency_records"  ("company_id", "subject", "key") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "main_api"."idempotency_records_caller_key_key"`);
    // Several callers may hold one key by now: the company-wide key keeps the first of them.
    await queryRunner.query(
      `DELETE FROM "idempotency_records" AS later USING "idempotency_records" AS first
        WHERE later.company_id = first.company_id AND later.key = first.key
          AND (later.created_at, later.id) > (first.created_at, first.id)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idempotency_records_company_key_key" ON "idempotency_records"  ("company_id", "key") `,
    );
    await queryRunner.query(`ALTER TABLE "idempotency_records" DROP COLUMN "subject"`);
  }
}
