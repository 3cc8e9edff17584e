import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: the retention pruner asks every run which webhook events were received long ago and
 * which finished deliveries last changed long ago; these indexes answer without reading the whole
 * tables. The delivery one holds finished deliveries only: pending ones are never pruned.
 */
export class RetentionIndexes1795600000400 implements MigrationInterface {
  name = 'RetentionIndexes1795600000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "webhook_events_received_at_idx" ON "webhook_events"  ("received_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries"  ("updated_at") WHERE "status" <> 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_finished_idx"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_events_received_at_idx"`);
  }
}
