import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddUserProfile1795359401249 implements MigrationInterface {
  name = 'AddUserProfile1795359401249';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "user_position_id" integer`);
    await queryRunner.query(`ALTER TABLE "users" ADD "picture" character varying(500) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "users" ADD "hidden" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "users" ADD "labels" integer array NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "labels"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "hidden"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "picture"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "user_position_id"`);
  }
}
