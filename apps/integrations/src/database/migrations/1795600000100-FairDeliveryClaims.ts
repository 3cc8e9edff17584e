import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fair claim (issue 20) reads each company's oldest due deliveries and the attempts under way:
 * the due index gains the company in front, and open attempts get a small index of their own.
 */
export class FairDeliveryClaims1795600000100 implements MigrationInterface {
  name = 'FairDeliveryClaims1795600000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_due_idx"`);
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"  ("company_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_delivery_attempts_open_idx" ON "webhook_delivery_attempts"  ("delivery_id") WHERE "finished_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "integrations"."webhook_delivery_attempts_open_idx"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_due_idx"`);
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"  ("next_attempt_at") WHERE "status" = 'pending'`,
    );
  }
}
