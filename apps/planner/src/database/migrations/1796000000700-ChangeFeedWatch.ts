import { changeFeedWatchSql } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel planner replicas LISTEN on (ChangeNotificationListener); the payload is empty. */
export const PLANNER_CHANGE_EVENTS_CHANNEL = 'planner_change_events';

/**
 * The planner feed's watch (`GET /v2/events/watch`), as main-api's (issue 24): integrations asks
 * which companies have new allocation events instead of reading every subscribing company's feed,
 * so an idle planner costs it one long poll per replica. `feed-watch` may read change_events across
 * companies (their ids only), a statement trigger NOTIFYs at commit, and the transaction index
 * serves the watch's read.
 */
export class ChangeFeedWatch1796000000700 implements MigrationInterface {
  name = 'ChangeFeedWatch1796000000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "change_events_transaction_idx" ON "change_events" ("transaction_id") `,
    );
    for (const statement of changeFeedWatchSql.up(PLANNER_CHANGE_EVENTS_CHANNEL)) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of changeFeedWatchSql.down) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(`DROP INDEX "change_events_transaction_idx"`);
  }
}
