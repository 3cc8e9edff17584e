import {
  disableRowVersions,
  enableRowLevelSecurity,
  enableRowVersions,
  type RowLevelSecurityPlan,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PLAN: RowLevelSecurityPlan = {
  schema: 'planner',
  runtimeRole: 'planner_runtime',
  tenantTables: ['placeholders'],
  crossCompany: [],
};

const FORGET_DAYS_ON = `"from_date", "to_date", "allocated_hours", "user_id", "status", "mode", "hours_per_day", "percent"`;

/**
 * Placeholders (issue 39): a role booked before knowing who ("a senior designer"), with its
 * position, category, project and labels as main-api's ids. An allocation books exactly one of a
 * person or a placeholder (`allocations_assignee_check`); its days copy which, so a placeholder's
 * days are one range of `allocation_days_placeholder_idx`. A placeholder is on a project once a day,
 * as a person is (`allocations_placeholder_no_overlap`), and cannot be deleted while booked (the
 * foreign keys RESTRICT). Its changes are events of the planner's feed, kind `placeholders`; events
 * of a placeholder's allocations carry no user.
 */
export class Placeholders1796000002000 implements MigrationInterface {
  name = 'Placeholders1796000002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "placeholders" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "company_id" integer NOT NULL, "name" character varying(100) NOT NULL, "position_id" integer, "category_id" integer, "project_id" integer, "label_ids" integer array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "placeholders_name_check" CHECK (char_length("name") BETWEEN 1 AND 100), CONSTRAINT "placeholders_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "placeholders_company_name_idx" ON "placeholders" ("company_id", "name", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "placeholders_company_project_idx" ON "placeholders" ("company_id", "project_id") `,
    );
    await enableRowVersions(queryRunner, ['placeholders']);
    await enableRowLevelSecurity(queryRunner, PLAN);
    await queryRunner.query(
      `CREATE TRIGGER "placeholders_record_change" AFTER INSERT OR UPDATE OR DELETE ON "placeholders" FOR EACH ROW EXECUTE FUNCTION record_change('placeholders')`,
    );

    await queryRunner.query(`ALTER TABLE "allocations" ALTER COLUMN "user_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "allocations" ADD "placeholder_id" uuid`);
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_assignee_check" CHECK (num_nonnulls("user_id", "placeholder_id") = 1)`,
    );
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_placeholder_no_overlap" EXCLUDE USING gist ("company_id" WITH =, "placeholder_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&) WHERE ("placeholder_id" IS NOT NULL)`,
    );
    await queryRunner.query(
      `ALTER TABLE "allocations" ADD CONSTRAINT "allocations_placeholder_fkey" FOREIGN KEY ("placeholder_id") REFERENCES "placeholders"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );

    await queryRunner.query(`ALTER TABLE "allocation_days" ALTER COLUMN "user_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "allocation_days" ADD "placeholder_id" uuid`);
    await queryRunner.query(
      `CREATE INDEX "allocation_days_placeholder_idx" ON "allocation_days" ("company_id", "placeholder_id", "day") WHERE "placeholder_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "allocation_days" ADD CONSTRAINT "allocation_days_placeholder_fkey" FOREIGN KEY ("placeholder_id") REFERENCES "placeholders"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    // Days copy who is booked: a row whose placeholder changes forgets them, as one whose person does.
    await this.forgetDaysOn(queryRunner, `${FORGET_DAYS_ON}, "placeholder_id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.forgetDaysOn(queryRunner, FORGET_DAYS_ON);
    // A placeholder's allocations cannot outlive the column that names what they book.
    await queryRunner.query(`DELETE FROM "allocations" WHERE "placeholder_id" IS NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "allocation_days" DROP CONSTRAINT "allocation_days_placeholder_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "allocation_days_placeholder_idx"`);
    await queryRunner.query(`ALTER TABLE "allocation_days" DROP COLUMN "placeholder_id"`);
    await queryRunner.query(`ALTER TABLE "allocation_days" ALTER COLUMN "user_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_placeholder_fkey"`);
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_placeholder_no_overlap"`);
    await queryRunner.query(`ALTER TABLE "allocations" DROP CONSTRAINT "allocations_assignee_check"`);
    await queryRunner.query(`ALTER TABLE "allocations" DROP COLUMN "placeholder_id"`);
    await queryRunner.query(`ALTER TABLE "allocations" ALTER COLUMN "user_id" SET NOT NULL`);
    await queryRunner.query(`DROP TRIGGER "placeholders_record_change" ON "placeholders"`);
    await queryRunner.query(`DELETE FROM "change_events" WHERE "entity" = 'placeholders'`);
    await disableRowVersions(queryRunner, ['placeholders']);
    await queryRunner.query(`DROP TABLE "placeholders"`);
  }

  private async forgetDaysOn(queryRunner: QueryRunner, columns: string): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "allocations_forget_days" ON "allocations"`);
    await queryRunner.query(
      `CREATE TRIGGER "allocations_forget_days" AFTER UPDATE OF ${columns} ON "allocations" FOR EACH ROW EXECUTE FUNCTION forget_allocation_days()`,
    );
  }
}
