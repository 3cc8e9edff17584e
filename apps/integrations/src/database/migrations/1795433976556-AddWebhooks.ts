import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddWebhooks1795433976556 implements MigrationInterface {
  name = 'AddWebhooks1795433976556';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "source" character varying(32) NOT NULL, "event_id" character varying(255) NOT NULL, "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'received', "outcome_status" integer, "outcome" jsonb, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "applied_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "webhook_events_status_check" CHECK ("status" IN ('received', 'applied', 'failed', 'retryable')), CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_events_key" ON "webhook_events"  ("company_id", "source", "event_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_sources" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "source" character varying(32) NOT NULL, "signing_secret_sealed" text NOT NULL, "api_key" character varying(100) NOT NULL, "client_secret_sealed" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_sources_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_sources_key" ON "webhook_sources"  ("company_id", "source") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "integrations"."webhook_sources_key"`);
    await queryRunner.query(`DROP TABLE "webhook_sources"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_events_key"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
  }
}
