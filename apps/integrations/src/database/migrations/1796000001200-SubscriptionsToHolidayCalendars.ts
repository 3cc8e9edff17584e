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
];

const listed = (entities: readonly string[]) => entities.map((entity) => `'${entity}'`).join(', ');

/** Subscriptions may name main-api's holiday calendars (issue 38), a kind of its change feed. */
export class SubscriptionsToHolidayCalendars1796000001200 implements MigrationInterface {
  name = 'SubscriptionsToHolidayCalendars1796000001200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.allow(queryRunner, [...BEFORE, 'holiday-calendars', 'allocations']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "webhook_subscriptions" SET "entities" = array_remove("entities", 'holiday-calendars')`,
    );
    await this.allow(queryRunner, [...BEFORE, 'allocations']);
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
