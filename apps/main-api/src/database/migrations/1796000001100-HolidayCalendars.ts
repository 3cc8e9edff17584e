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
  tenantTables: ['holiday_calendars', 'holidays'],
};

/**
 * Holiday calendars and their holidays (issue 38): days a person's capacity leaves out, one holiday
 * per calendar and day. Row-level security and row versions as every main-api resource; a calendar's
 * changes and its holidays' are `holiday-calendars` events (holidays as its field, as a ratecard's
 * prices).
 */
export class HolidayCalendars1796000001100 implements MigrationInterface {
  name = 'HolidayCalendars1796000001100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "holiday_calendars" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(100) NOT NULL, "country" character varying(2), "region" character varying(10), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "holiday_calendars_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "holiday_calendars_company_idx" ON "holiday_calendars" ("company_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "holidays" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "calendar_id" integer NOT NULL, "date" date NOT NULL, "name" character varying(200) NOT NULL, "hours_off" numeric(4,2), "source" character varying(10) NOT NULL DEFAULT 'manual', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "holidays_source_check" CHECK ("source" IN ('manual', 'import')), CONSTRAINT "holidays_hours_off_check" CHECK ("hours_off" IS NULL OR ("hours_off" > 0 AND "hours_off" <= 24)), CONSTRAINT "holidays_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "holidays_company_date_idx" ON "holidays" ("company_id", "date") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "holidays_calendar_date_key" ON "holidays" ("calendar_id", "date") `,
    );
    await queryRunner.query(
      `ALTER TABLE "holiday_calendars" ADD CONSTRAINT "holiday_calendars_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "holidays" ADD CONSTRAINT "holidays_calendar_id_fkey" FOREIGN KEY ("calendar_id") REFERENCES "holiday_calendars"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await enableRowVersions(queryRunner, ['holiday_calendars', 'holidays']);
    await enableRowLevelSecurity(queryRunner, PLAN);
    await queryRunner.query(
      `CREATE TRIGGER "holiday_calendars_record_change" AFTER INSERT OR UPDATE OR DELETE ON "holiday_calendars" FOR EACH ROW EXECUTE FUNCTION record_change('holiday-calendars', 'id')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "holidays_record_change" AFTER INSERT OR UPDATE OR DELETE ON "holidays" FOR EACH ROW EXECUTE FUNCTION record_change('holiday-calendars', 'calendar_id', 'holidays')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "holidays_record_change" ON "holidays"`);
    await queryRunner.query(`DROP TRIGGER "holiday_calendars_record_change" ON "holiday_calendars"`);
    await disableRowVersions(queryRunner, ['holiday_calendars', 'holidays']);
    // Their policies go with them.
    await queryRunner.query(`DROP TABLE "holidays"`);
    await queryRunner.query(`DROP TABLE "holiday_calendars"`);
  }
}
