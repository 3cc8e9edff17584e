import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21: registered public clients (browser apps) and the authorization codes of the code + PKCE
 * flow. A code row outlives its exchange: it names the refresh-token family it started, which binds
 * that login to its app.
 */
export class AddAuthorizationCodes1795700000100 implements MigrationInterface {
  name = 'AddAuthorizationCodes1795700000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_apps" ("id" SERIAL NOT NULL, "company_id" integer NOT NULL, "name" character varying(200) NOT NULL, "client_id" character varying(64) NOT NULL, "redirect_uris" text array NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "oauth_apps_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "oauth_apps_company_id_idx" ON "oauth_apps"  ("company_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "oauth_apps_client_id_key" ON "oauth_apps"  ("client_id") `);
    await queryRunner.query(
      `ALTER TABLE "oauth_apps" ADD CONSTRAINT "oauth_apps_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "authorization_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "code_hash" character(64) NOT NULL, "app_id" integer NOT NULL, "company_id" integer NOT NULL, "user_id" integer NOT NULL, "redirect_uri" character varying(2000) NOT NULL, "code_challenge" character(43) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "family_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "authorization_codes_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "authorization_codes_code_hash_key" ON "authorization_codes"  ("code_hash") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "authorization_codes_family_id_key" ON "authorization_codes"  ("family_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "authorization_codes_expires_at_idx" ON "authorization_codes"  ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "oauth_apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "authorization_codes"`);
    await queryRunner.query(`DROP TABLE "oauth_apps"`);
  }
}
