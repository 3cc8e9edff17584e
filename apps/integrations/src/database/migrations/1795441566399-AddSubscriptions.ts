import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddSubscriptions1795441566399 implements MigrationInterface {
  name = 'AddSubscriptions1795441566399';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "feed_cursors" ("company_id" integer NOT NULL, "last_cursor" bigint NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "feed_cursors_pkey" PRIMARY KEY ("company_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_subscriptions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "source" character varying(32) NOT NULL, "url" character varying(2048) NOT NULL, "entities" character varying(40) array NOT NULL DEFAULT '{}', "kinds" character varying(16) array NOT NULL, "signing_secret_sealed" text NOT NULL, "api_key" character varying(100) NOT NULL, "client_secret_sealed" text NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "failing_since" TIMESTAMP WITH TIME ZONE, "disabled_at" TIMESTAMP WITH TIME ZONE, "disabled_reason" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_subscriptions_entities_check" CHECK ("entities" <@ ARRAY['brands', 'clients', 'contracts', 'positions', 'position-categories', 'projects', 'teams', 'users', 'user-leaves', 'workspaces', 'working-time']::varchar[]), CONSTRAINT "webhook_subscriptions_kinds_check" CHECK (cardinality("kinds") > 0 AND "kinds" <@ ARRAY['created', 'updated', 'deleted']::varchar[]), CONSTRAINT "webhook_subscriptions_disabled_check" CHECK (("status" = 'disabled') = ("disabled_at" IS NOT NULL)), CONSTRAINT "webhook_subscriptions_status_check" CHECK ("status" IN ('active', 'disabled')), CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_subscriptions_active_idx" ON "webhook_subscriptions"  ("company_id") WHERE "status" = 'active'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_subscriptions_company_key" ON "webhook_subscriptions"  ("id", "company_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_subscriptions_key" ON "webhook_subscriptions"  ("company_id", "source", "url") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "subscription_id" uuid NOT NULL, "event_cursor" bigint NOT NULL, "entity" character varying(40) NOT NULL, "kind" character varying(16) NOT NULL, "payload" json NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "failed_attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "last_status_code" integer, "last_error" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_deliveries_attempts_check" CHECK ("failed_attempts" >= 0 AND "failed_attempts" <= "attempts"), CONSTRAINT "webhook_deliveries_kind_check" CHECK ("kind" IN ('created', 'updated', 'deleted')), CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed')), CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries"  ("subscription_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"  ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_deliveries_company_key" ON "webhook_deliveries"  ("id", "company_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_deliveries_key" ON "webhook_deliveries"  ("subscription_id", "event_cursor") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery_attempts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "delivery_id" uuid NOT NULL, "attempt" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, "status_code" integer, "error" character varying(500), "duration_ms" integer, CONSTRAINT "webhook_delivery_attempts_attempt_check" CHECK ("attempt" >= 1), CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_delivery_attempts_key" ON "webhook_delivery_attempts"  ("delivery_id", "attempt") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_fkey" FOREIGN KEY ("subscription_id", "company_id") REFERENCES "webhook_subscriptions"("id","company_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_fkey" FOREIGN KEY ("delivery_id", "company_id") REFERENCES "webhook_deliveries"("id","company_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "webhook_delivery_attempts_delivery_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_subscription_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "integrations"."webhook_delivery_attempts_key"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_key"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_company_key"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_due_idx"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_deliveries_log_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_subscriptions_key"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_subscriptions_company_key"`);
    await queryRunner.query(`DROP INDEX "integrations"."webhook_subscriptions_active_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_subscriptions"`);
    await queryRunner.query(`DROP TABLE "feed_cursors"`);
  }
}
