import type { MigrationInterface, QueryRunner } from 'typeorm';

// Written out: a migration keeps the lists of its day, whatever libs/contracts says later.
const BEFORE = [
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
  'holiday-calendars',
  'allocations',
  'placeholders',
];

const listed = (entities: readonly string[]) => entities.map((entity) => `'${entity}'`).join(', ');

/** Subscriptions may name the planner's applied scenarios (issue 39), a kind of its change feed. */
export class SubscriptionsToScenarios1796000002300 implements MigrationInterface {
  name = 'SubscriptionsToScenarios1796000002300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.allow(queryRunner, [...BEFORE, 'scenarios']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "webhook_subscriptions" SET "entities" = array_remove("entities", 'scenarios')`,
    );
    await this.allow(queryRunner, BEFORE);
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
