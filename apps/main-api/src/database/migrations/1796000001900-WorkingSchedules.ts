import {
  disableRowVersions,
  enableRowLevelSecurity,
  enableRowVersions,
  type RowLevelSecurityPlan,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PLAN: RowLevelSecurityPlan = {
  schema: 'main_api',
  runtimeRole: 'main_api_runtime',
  tenantTables: ['working_schedules'],
};

/**
 * Working weeks with history (issue 38): a person's entries belong to a schedule in force from its
 * `effective_from` until the next one's. Each person with a week gets one schedule from the day they
 * were created (UTC), holding the entries they had. A schedule's change is what its entries' change
 * has always been: an `updated` event of `working-time` keyed by the user, field `entries`, so
 * subscribers and the interface's PUT see the same events as before (one per transaction).
 */
export class WorkingSchedules1796000001900 implements MigrationInterface {
  name = 'WorkingSchedules1796000001900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "working_schedules" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "user_id" integer NOT NULL, "effective_from" date NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "working_schedules_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "working_schedules_user_from_key" ON "working_schedules" ("user_id", "effective_from") `,
    );
    await queryRunner.query(
      `CREATE INDEX "working_schedules_company_user_idx" ON "working_schedules" ("company_id", "user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "working_schedules" ADD CONSTRAINT "working_schedules_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "working_schedules" ADD CONSTRAINT "working_schedules_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "working_time_entries" ADD "schedule_id" integer`);
    await this.asOwner(queryRunner, ['users', 'working_time_entries'], async () => {
      await queryRunner.query(
        `INSERT INTO "working_schedules" ("company_id", "user_id", "effective_from")
         SELECT u."company_id", u."id", (u."created_at" AT TIME ZONE 'UTC')::date
           FROM "users" u
          WHERE EXISTS (SELECT 1 FROM "working_time_entries" e WHERE e."user_id" = u."id")`,
      );
      await queryRunner.query(
        `UPDATE "working_time_entries" e SET "schedule_id" = s."id"
           FROM "working_schedules" s WHERE s."user_id" = e."user_id"`,
      );
    });
    await queryRunner.query(`ALTER TABLE "working_time_entries" ALTER COLUMN "schedule_id" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "working_time_entries_user_day_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "working_time_entries_schedule_day_key" ON "working_time_entries" ("schedule_id", "day_of_week") `,
    );
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" ADD CONSTRAINT "working_time_entries_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "working_schedules"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await enableRowVersions(queryRunner, ['working_schedules']);
    await enableRowLevelSecurity(queryRunner, PLAN);
    await queryRunner.query(
      `CREATE TRIGGER "working_schedules_record_change" AFTER INSERT OR UPDATE OR DELETE ON "working_schedules" FOR EACH ROW EXECUTE FUNCTION record_change('working-time', 'user_id', 'entries')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "working_schedules_record_change" ON "working_schedules"`);
    await disableRowVersions(queryRunner, ['working_schedules']);
    // One week per person again: the one in force today.
    await this.asOwner(queryRunner, ['working_time_entries', 'working_schedules'], async () => {
      await queryRunner.query(
        `DELETE FROM "working_time_entries" e
          WHERE e."schedule_id" <> (SELECT s."id" FROM "working_schedules" s WHERE s."user_id" = e."user_id"
                                     ORDER BY s."effective_from" > current_date, abs(s."effective_from" - current_date)
                                     LIMIT 1)`,
      );
    });
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" DROP CONSTRAINT "working_time_entries_schedule_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "working_time_entries_schedule_day_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "working_time_entries_user_day_key" ON "working_time_entries" ("user_id", "day_of_week") `,
    );
    await queryRunner.query(`ALTER TABLE "working_time_entries" DROP COLUMN "schedule_id"`);
    await queryRunner.query(`DROP TABLE "working_schedules"`);
  }

  /**
   * `work` on every company's rows: row-level security is forced on these tables (FORCE: the owner
   * too), and the change feed's trigger would record the move of each entry, which changes no week.
   */
  private async asOwner(
    queryRunner: QueryRunner,
    tables: string[],
    work: () => Promise<void>,
  ): Promise<void> {
    for (const table of tables) {
      await queryRunner.query(`ALTER TABLE "${table}" NO FORCE ROW LEVEL SECURITY`);
    }
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" DISABLE TRIGGER "working_time_entries_record_change"`,
    );
    await work();
    await queryRunner.query(
      `ALTER TABLE "working_time_entries" ENABLE TRIGGER "working_time_entries_record_change"`,
    );
    for (const table of tables) {
      await queryRunner.query(`ALTER TABLE "${table}" FORCE ROW LEVEL SECURITY`);
    }
  }
}
