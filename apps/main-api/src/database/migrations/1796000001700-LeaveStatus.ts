import { disableRowVersions, enableRowVersions } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const OVERLAP = `EXCLUDE USING gist ("company_id" WITH =, "user_id" WITH =, tstzrange("start", "end", '[]') WITH &&)`;

/**
 * Time off with a status (issue 38): a leave is requested, approved, rejected or cancelled (every
 * leave so far was approved, the default), with who decided and when, and a note. The overlap
 * constraint now holds among requested and approved leaves only, so a rejected or cancelled leave
 * frees its days; it keeps its name (422 AC004). A company may require approval of its people's own
 * leaves. Status changes are `updated` events of `user-leaves` (its trigger is there since
 * AddChangeFeed); leaves get a row version for `If-Match`.
 */
export class LeaveStatus1796000001700 implements MigrationInterface {
  name = 'LeaveStatus1796000001700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD "status" character varying(20) NOT NULL DEFAULT 'approved'`,
    );
    await queryRunner.query(`ALTER TABLE "user_leaves" ADD "decided_by_user_id" integer`);
    await queryRunner.query(`ALTER TABLE "user_leaves" ADD "decided_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "user_leaves" ADD "note" character varying(500)`);
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_status_check" CHECK ("status" IN ('requested', 'approved', 'rejected', 'cancelled'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_decided_by_user_id_fkey" FOREIGN KEY ("decided_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_no_overlap"`);
    await queryRunner.query(
      `ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_no_overlap" ${OVERLAP} WHERE ("status" IN ('requested', 'approved'))`,
    );
    await enableRowVersions(queryRunner, ['user_leaves']);
    await queryRunner.query(
      `ALTER TABLE "companies" ADD "leave_approval_required" boolean NOT NULL DEFAULT false`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "companies" DROP COLUMN "leave_approval_required"`);
    await disableRowVersions(queryRunner, ['user_leaves']);
    // Leaves that no longer count would break the old, unconditional constraint: they go.
    await queryRunner.query(`DELETE FROM "user_leaves" WHERE "status" NOT IN ('requested', 'approved')`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_no_overlap"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" ADD CONSTRAINT "user_leaves_no_overlap" ${OVERLAP}`);
    await queryRunner.query(
      `ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_decided_by_user_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP CONSTRAINT "user_leaves_status_check"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP COLUMN "note"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP COLUMN "decided_at"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP COLUMN "decided_by_user_id"`);
    await queryRunner.query(`ALTER TABLE "user_leaves" DROP COLUMN "status"`);
  }
}
