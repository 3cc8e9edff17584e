import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Hand-written: lets GET /projects/search-by-name use an index instead of scanning the table. */
export class AddProjectNameSearchIndex1795361793205 implements MigrationInterface {
  name = 'AddProjectNameSearchIndex1795361793205';

  async up(queryRunner: QueryRunner): Promise<void> {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    await queryRunner.query(
      `CREATE INDEX "projects_name_trgm_idx" ON "projects" USING gin ("name" public.gin_trgm_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "main_api"."projects_name_trgm_idx"`);
  }
}
