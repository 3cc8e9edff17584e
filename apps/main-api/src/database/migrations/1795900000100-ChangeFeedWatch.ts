import { CURRENT_PURPOSE } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channel main-api replicas LISTEN on (ChangeNotificationListener); the payload is empty. */
export const CHANGE_EVENTS_CHANNEL = 'main_api_change_events';

/**
 * The change feed's watch (issue 24):
 * - `feed_watch_select`: under the `feed-watch` purpose, change_events may be read across companies,
 *   so main-api can tell integrations which companies have new events (it answers their ids only);
 * - a statement-level trigger NOTIFYs every listening main-api when events are appended. NOTIFY is
 *   delivered when the appending transaction commits and never when it rolls back, and PostgreSQL
 *   folds a transaction's identical notifications into one, so a write costs one notification
 *   however many events it appends. Appends that merge into an earlier event of the same
 *   transaction (an UPDATE of change_events) need none: that event's INSERT already notified.
 */
export class ChangeFeedWatch1795900000100 implements MigrationInterface {
  name = 'ChangeFeedWatch1795900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE POLICY feed_watch_select ON "change_events" FOR SELECT USING (${CURRENT_PURPOSE} = 'feed-watch')`,
    );
    await queryRunner.query(`CREATE FUNCTION notify_change_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${CHANGE_EVENTS_CHANNEL}', '');
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "change_events_notify" AFTER INSERT ON "change_events" FOR EACH STATEMENT EXECUTE FUNCTION notify_change_events()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "change_events_notify" ON "change_events"`);
    await queryRunner.query(`DROP FUNCTION notify_change_events()`);
    await queryRunner.query(`DROP POLICY feed_watch_select ON "change_events"`);
  }
}
