import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AllocationAssignment1795431737129 implements MigrationInterface {
  name = 'AllocationAssignment1795431737129';

  async up(queryRunner: QueryRunner): Promise<void> {
    // NOT NULL without a default is safe: no release could write allocations before this one.
    await queryRunner.query(`ALTER TABLE "allocations" ADD "assigned_by_user_id" integer NOT NULL`);
    await queryRunner.query(`ALTER TABLE "allocations" ADD "email" character varying(254)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "allocations" DROP COLUMN "email"`);
    await queryRunner.query(`ALTER TABLE "allocations" DROP COLUMN "assigned_by_user_id"`);
  }
}
