import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Incoming webhooks signed in the documented form (timestamp and body, not the event id) are bound
 * to the first event id they came with (issue 20): one row per accepted signature, kept for the
 * replay window of its timestamp only, so the same signature under another event id is refused.
 * Read and written by the webhook receiver alone (no entity: nothing else reads it).
 */
export class WebhookSignatureReplayGuard1795600000200 implements MigrationInterface {
  name = 'WebhookSignatureReplayGuard1795600000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_signatures" ("company_id" integer NOT NULL, "source" character varying(32) NOT NULL, "replay_key" bytea NOT NULL, "event_id" character varying(255) NOT NULL, "signed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "webhook_signatures_pkey" PRIMARY KEY ("company_id", "source", "replay_key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_signatures_signed_at_idx" ON "webhook_signatures" ("company_id", "source", "signed_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "integrations"."webhook_signatures_signed_at_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_signatures"`);
  }
}
