import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A subscription may ask for the changes of some projects only, and for each change's
 * representation as main-api answers it after the change (`payload: snapshot`) rather than only its
 * id and fields (`thin`, what every subscription got before).
 */
export class SubscriptionFilters1796000000500 implements MigrationInterface {
  name = 'SubscriptionFilters1796000000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_subscriptions" ADD COLUMN "project_ids" integer array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_subscriptions" ADD COLUMN "payload" character varying(16) NOT NULL DEFAULT 'thin'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_payload_check" CHECK ("payload" IN ('thin', 'snapshot'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_payload_check"`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_subscriptions" DROP COLUMN "payload"`);
    await queryRunner.query(`ALTER TABLE "webhook_subscriptions" DROP COLUMN "project_ids"`);
  }
}
