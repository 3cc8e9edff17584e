import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddWorkspacesAndTeams1795359841140 implements MigrationInterface {
  name = 'AddWorkspacesAndTeams1795359841140';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "teams" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "description" character varying(2000), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "teams_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "teams_company_idx" ON "teams"  ("company_id") `);
    await queryRunner.query(
      `CREATE TABLE "team_members" ("team_id" integer NOT NULL, "user_id" integer NOT NULL, "company_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "team_members_pkey" PRIMARY KEY ("team_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "team_members_user_idx" ON "team_members"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "workspaces" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "active" boolean NOT NULL DEFAULT true, "description" character varying(2000), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "workspaces_company_idx" ON "workspaces"  ("company_id") `);
    await queryRunner.query(
      `ALTER TABLE "teams" ADD CONSTRAINT "teams_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workspaces" DROP CONSTRAINT "workspaces_company_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "team_members_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "team_members" DROP CONSTRAINT "team_members_team_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP CONSTRAINT "teams_company_id_fkey"`);
    await queryRunner.query(`DROP INDEX "main_api"."workspaces_company_idx"`);
    await queryRunner.query(`DROP TABLE "workspaces"`);
    await queryRunner.query(`DROP INDEX "main_api"."team_members_user_idx"`);
    await queryRunner.query(`DROP TABLE "team_members"`);
    await queryRunner.query(`DROP INDEX "main_api"."teams_company_idx"`);
    await queryRunner.query(`DROP TABLE "teams"`);
  }
}
