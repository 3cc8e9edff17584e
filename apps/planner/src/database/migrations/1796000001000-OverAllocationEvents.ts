import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `availability.over_allocated` in the planner's feed (issue 37): a v2 write that puts a day of a
 * person over capacity under the `warn` policy records one event per such day, with what the board
 * needs to show it (`data`: user, date, capacity, booked), in the write's transaction. The kind is
 * longer than the three of record_change(), and the only one that carries data.
 */
export class OverAllocationEvents1796000001000 implements MigrationInterface {
  name = 'OverAllocationEvents1796000001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "change_events" DROP CONSTRAINT "change_events_kind_check"`);
    await queryRunner.query(`ALTER TABLE "change_events" ALTER COLUMN "kind" TYPE character varying(20)`);
    await queryRunner.query(`ALTER TABLE "change_events" ADD "data" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "change_events" ADD CONSTRAINT "change_events_kind_check" CHECK ("kind" IN ('created', 'updated', 'deleted', 'over_allocated'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "change_events" WHERE "kind" = 'over_allocated'`);
    await queryRunner.query(`ALTER TABLE "change_events" DROP CONSTRAINT "change_events_kind_check"`);
    await queryRunner.query(`ALTER TABLE "change_events" DROP COLUMN "data"`);
    await queryRunner.query(`ALTER TABLE "change_events" ALTER COLUMN "kind" TYPE character varying(10)`);
    await queryRunner.query(
      `ALTER TABLE "change_events" ADD CONSTRAINT "change_events_kind_check" CHECK ("kind" IN ('created', 'updated', 'deleted'))`,
    );
  }
}
