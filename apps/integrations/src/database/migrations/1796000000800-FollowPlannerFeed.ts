import type { MigrationInterface, QueryRunner } from 'typeorm';

// Written out: a migration keeps the lists of its day, whatever libs/contracts says later.
const MAIN_API_ENTITIES = [
  'brands',
  'clients',
  'contracts',
  'positions',
  'position-categories',
  'projects',
  'teams',
  'users',
  'user-leaves',
  'workspaces',
  'working-time',
  'tasks',
  'hours',
  'fees',
  'transactions',
  'project-costs',
  'project-estimates',
  'ratecards',
  'labels',
  'products',
];

const listed = (entities: readonly string[]) => entities.map((entity) => `'${entity}'`).join(', ');

/**
 * Integrations follows the planner's change feed too (issue 36), so a subscription may ask for
 * `allocations`. Each feed has its own cursors, and an event's cursor is unique within its feed
 * only: the cursor row and the delivery's key name the feed.
 */
export class FollowPlannerFeed1796000000800 implements MigrationInterface {
  name = 'FollowPlannerFeed1796000000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "feed_cursors" ADD "feed" character varying(16) NOT NULL DEFAULT 'main-api'`,
    );
    await queryRunner.query(`ALTER TABLE "feed_cursors" DROP CONSTRAINT "feed_cursors_pkey"`);
    await queryRunner.query(
      `ALTER TABLE "feed_cursors" ADD CONSTRAINT "feed_cursors_pkey" PRIMARY KEY ("company_id", "feed")`,
    );
    await queryRunner.query(
      `ALTER TABLE "feed_cursors" ADD CONSTRAINT "feed_cursors_feed_check" CHECK ("feed" IN ('main-api', 'planner'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD "feed" character varying(16) NOT NULL DEFAULT 'main-api'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_feed_check" CHECK ("feed" IN ('main-api', 'planner'))`,
    );
    await queryRunner.query(`DROP INDEX "webhook_deliveries_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_deliveries_key" ON "webhook_deliveries" ("subscription_id", "feed", "event_cursor") `,
    );
    await this.allow(queryRunner, [...MAIN_API_ENTITIES, 'allocations']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "webhook_deliveries" WHERE "feed" = 'planner'`);
    await queryRunner.query(`DELETE FROM "feed_cursors" WHERE "feed" = 'planner'`);
    await queryRunner.query(
      `UPDATE "webhook_subscriptions" SET "entities" = array_remove("entities", 'allocations')`,
    );
    await this.allow(queryRunner, MAIN_API_ENTITIES);
    await queryRunner.query(`DROP INDEX "webhook_deliveries_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_deliveries_key" ON "webhook_deliveries" ("subscription_id", "event_cursor") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_feed_check"`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "feed"`);
    await queryRunner.query(`ALTER TABLE "feed_cursors" DROP CONSTRAINT "feed_cursors_feed_check"`);
    await queryRunner.query(`ALTER TABLE "feed_cursors" DROP CONSTRAINT "feed_cursors_pkey"`);
    await queryRunner.query(`ALTER TABLE "feed_cursors" DROP COLUMN "feed"`);
    await queryRunner.query(
      `ALTER TABLE "feed_cursors" ADD CONSTRAINT "feed_cursors_pkey" PRIMARY KEY ("company_id")`,
    );
  }

  private async allow(queryRunner: QueryRunner, entities: readonly string[]): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_entities_check"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_entities_check" CHECK ("entities" <@ ARRAY[${listed(entities)}]::varchar[])`,
    );
  }
}
