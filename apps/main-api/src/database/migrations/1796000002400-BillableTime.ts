import { enableRowLevelSecurity, type RowLevelSecurityPlan } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PLAN: RowLevelSecurityPlan = {
  schema: 'main_api',
  runtimeRole: 'main_api_runtime',
  tenantTables: ['timesheet_locks'],
};

/**
 * Time that bills (issue 40). A time entry gets a note, a billable flag (its project's, for the rows
 * already there), the booking it fulfils, the tracker it came from (`source` + `external_id`, unique
 * per company, so an import upserts), and a status in the weekly approval (draft, submitted, approved,
 * rejected; the rows already there were logged before approval existed and count as approved).
 *
 * Two rules hold in the database, whoever writes (the interface's `/v1/hours`, `/v1/time-entries`, a
 * batch), under concurrency:
 * - the company's period lock (`timesheet_locks`): no entry dated on or before `locked_until` is
 *   inserted, changed or deleted. The trigger takes the company row `FOR KEY SHARE` (as an insert's
 *   foreign key check does anyway) before it reads the lock, and moving the lock takes it `FOR
 *   UPDATE`: a move waits for the writes in flight, and a write waits for the move and then reads the
 *   new lock. None slips in between, the company's first lock included;
 * - a submitted or approved entry whose hours, day, person, project or task change goes back to
 *   draft: what was reviewed is what stays approved.
 * Cascades (a company removed) are not writes of entries: the trigger lets them through.
 */
export class BillableTime1796000002400 implements MigrationInterface {
  name = 'BillableTime1796000002400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "note" character varying(2000)`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "billable" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "allocation_id" uuid`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "source" character varying(50)`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "external_id" character varying(255)`);
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD "status" character varying(16) NOT NULL DEFAULT 'approved'`,
    );
    await queryRunner.query(`ALTER TABLE "time_entries" ALTER COLUMN "status" SET DEFAULT 'draft'`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "submitted_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "reviewed_by_user_id" integer`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "reviewed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "time_entries" ADD "review_note" character varying(500)`);
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_status_check" CHECK ("status" IN ('draft', 'submitted', 'approved', 'rejected'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_external_id_check" CHECK (("source" IS NULL) = ("external_id" IS NULL))`,
    );
    await queryRunner.query(
      `ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_reviewed_by_user_id_fkey" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "time_entries_source_external_id_key" ON "time_entries" ("company_id", "source", "external_id") WHERE "external_id" IS NOT NULL`,
    );
    // The forecast and the time report read a project's (or a person's) entries by date.
    await queryRunner.query(
      `CREATE INDEX "time_entries_company_project_date_idx" ON "time_entries" ("company_id", "project_id", "date")`,
    );
    await this.billableAsTheirProject(queryRunner);

    await queryRunner.query(
      `CREATE TABLE "timesheet_locks" ("company_id" integer NOT NULL, "locked_until" date NOT NULL, "updated_by_user_id" integer, "version" integer NOT NULL DEFAULT 1, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "timesheet_locks_pkey" PRIMARY KEY ("company_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "timesheet_locks" ADD CONSTRAINT "timesheet_locks_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "timesheet_locks" ADD CONSTRAINT "timesheet_locks_updated_by_user_id_fkey" FOREIGN KEY ("updated_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await enableRowLevelSecurity(queryRunner, PLAN);

    // SET search_path FROM CURRENT: it finds companies and timesheet_locks in this schema whatever the
    // writer's search_path (a script, a psql session).
    await queryRunner.query(`CREATE FUNCTION time_entries_guard() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        locked date;
      BEGIN
        IF pg_trigger_depth() > 1 THEN
          RETURN COALESCE(NEW, OLD);
        END IF;
        PERFORM 1 FROM companies company WHERE company.id = COALESCE(NEW.company_id, OLD.company_id) FOR KEY SHARE;
        SELECT lock.locked_until INTO locked FROM timesheet_locks lock
         WHERE lock.company_id = COALESCE(NEW.company_id, OLD.company_id);
        IF locked IS NOT NULL AND ((TG_OP <> 'INSERT' AND OLD.date <= locked) OR (TG_OP <> 'DELETE' AND NEW.date <= locked)) THEN
          RAISE EXCEPTION 'time up to % is locked', locked
            USING ERRCODE = 'check_violation', CONSTRAINT = 'time_entries_period_locked',
                  TABLE = 'time_entries', DETAIL = locked::text;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.status IN ('submitted', 'approved') AND NEW.status = OLD.status
           AND (NEW.user_id, NEW.project_id, NEW.task_id, NEW.user_position_id, NEW.date, NEW.hours, NEW.billable)
               IS DISTINCT FROM
               (OLD.user_id, OLD.project_id, OLD.task_id, OLD.user_position_id, OLD.date, OLD.hours, OLD.billable) THEN
          NEW.status := 'draft';
          NEW.submitted_at := NULL;
          NEW.reviewed_by_user_id := NULL;
          NEW.reviewed_at := NULL;
        END IF;
        RETURN COALESCE(NEW, OLD);
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER "time_entries_guard" BEFORE INSERT OR UPDATE OR DELETE ON "time_entries" FOR EACH ROW EXECUTE FUNCTION time_entries_guard()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "time_entries_guard" ON "time_entries"`);
    await queryRunner.query(`DROP FUNCTION time_entries_guard()`);
    await queryRunner.query(`DROP TABLE "timesheet_locks"`);
    await queryRunner.query(`DROP INDEX "time_entries_company_project_date_idx"`);
    await queryRunner.query(`DROP INDEX "time_entries_source_external_id_key"`);
    await queryRunner.query(
      `ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_reviewed_by_user_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_external_id_check"`);
    await queryRunner.query(`ALTER TABLE "time_entries" DROP CONSTRAINT "time_entries_status_check"`);
    for (const column of [
      'review_note',
      'reviewed_at',
      'reviewed_by_user_id',
      'submitted_at',
      'status',
      'external_id',
      'source',
      'allocation_id',
      'billable',
      'note',
    ]) {
      await queryRunner.query(`ALTER TABLE "time_entries" DROP COLUMN "${column}"`);
    }
  }

  /**
   * The entries already logged on non-billable projects are not billable. Row-level security is
   * forced on these tables (the owner too), and the rows are every company's; the change is the
   * migration's, not an event of the feed, nor a new row version.
   */
  private async billableAsTheirProject(queryRunner: QueryRunner): Promise<void> {
    const tables = ['time_entries', 'projects'];
    for (const table of tables) {
      await queryRunner.query(`ALTER TABLE "${table}" NO FORCE ROW LEVEL SECURITY`);
    }
    await queryRunner.query(`ALTER TABLE "time_entries" DISABLE TRIGGER "time_entries_record_change"`);
    await queryRunner.query(`ALTER TABLE "time_entries" DISABLE TRIGGER "time_entries_row_version"`);
    await queryRunner.query(
      `UPDATE "time_entries" entry SET "billable" = false
         FROM "projects" project WHERE project."id" = entry."project_id" AND NOT project."billable"`,
    );
    await queryRunner.query(`ALTER TABLE "time_entries" ENABLE TRIGGER "time_entries_row_version"`);
    await queryRunner.query(`ALTER TABLE "time_entries" ENABLE TRIGGER "time_entries_record_change"`);
    for (const table of tables) {
      await queryRunner.query(`ALTER TABLE "${table}" FORCE ROW LEVEL SECURITY`);
    }
  }
}
