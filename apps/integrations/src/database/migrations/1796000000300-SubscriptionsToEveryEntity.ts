import type { MigrationInterface, QueryRunner } from 'typeorm';

// Written out: a migration keeps the lists of its day, whatever libs/contracts says later.
const INTEGRATION_ENTITIES = [
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
];
const CHANGE_FEED_ENTITIES = [
  ...INTEGRATION_ENTITIES,
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
 * Subscriptions may name every kind of main-api's change feed (issue 36: tasks, hours, fees,
 * transactions, project costs and estimates, ratecards, labels, products), not only the kinds the
 * integrations service writes by external id.
 */
export class SubscriptionsToEveryEntity1796000000300 implements MigrationInterface {
  name = 'SubscriptionsToEveryEntity1796000000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.allow(queryRunner, CHANGE_FEED_ENTITIES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.allow(queryRunner, INTEGRATION_ENTITIES);
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
