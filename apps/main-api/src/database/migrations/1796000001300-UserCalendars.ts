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
  tenantTables: ['user_holiday_calendars'],
};

/**
 * A person's holiday calendars from a date on, and the time zone they work in (issue 38). A
 * membership's change is an `updated` event of its user (field `holiday_calendars`), as working
 * time is.
 */
export class UserCalendars1796000001300 implements MigrationInterface {
  name = 'UserCalendars1796000001300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_holiday_calendars" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "user_id" integer NOT NULL, "calendar_id" integer NOT NULL, "effective_from" date NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "user_holiday_calendars_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "user_holiday_calendars_company_user_idx" ON "user_holiday_calendars" ("company_id", "user_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "user_holiday_calendars_user_from_key" ON "user_holiday_calendars" ("user_id", "effective_from") `,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD "time_zone" character varying(64) NOT NULL DEFAULT 'UTC'`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_holiday_calendars" ADD CONSTRAINT "user_holiday_calendars_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_holiday_calendars" ADD CONSTRAINT "user_holiday_calendars_calendar_id_fkey" FOREIGN KEY ("calendar_id") REFERENCES "holiday_calendars"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await enableRowVersions(queryRunner, ['user_holiday_calendars']);
    await enableRowLevelSecurity(queryRunner, PLAN);
    await queryRunner.query(
      `CREATE TRIGGER "user_holiday_calendars_record_change" AFTER INSERT OR UPDATE OR DELETE ON "user_holiday_calendars" FOR EACH ROW EXECUTE FUNCTION record_change('users', 'user_id', 'holiday_calendars')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TRIGGER "user_holiday_calendars_record_change" ON "user_holiday_calendars"`,
    );
    await disableRowVersions(queryRunner, ['user_holiday_calendars']);
    await queryRunner.query(`DROP TABLE "user_holiday_calendars"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "time_zone"`);
  }
}
