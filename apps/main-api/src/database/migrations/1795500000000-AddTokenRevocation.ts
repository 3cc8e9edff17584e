import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 19: access tokens that can be revoked, refresh families with an absolute lifetime, and
 * token-endpoint buckets that back off.
 *
 * `subject_token_epochs` holds, per token subject (`user:<id>`, `client:<id>`), a number that every
 * access token carries (`epoch`); a token whose number is below the subject's is revoked. Triggers
 * bump it whenever a change must end the subject's tokens (role changed, user deleted, API client
 * revoked), so every path that makes such a change, an API route, provisioning or an operator's
 * SQL, revokes alike. A subject without a row is at epoch 0.
 */
export class AddTokenRevocation1795500000000 implements MigrationInterface {
  name = 'AddTokenRevocation1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subject_token_epochs" ("subject" character varying(30) NOT NULL, "epoch" integer NOT NULL, CONSTRAINT "subject_token_epochs_pkey" PRIMARY KEY ("subject"))`,
    );
    await queryRunner.query(`
      CREATE FUNCTION bump_token_epoch() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        subject_id integer;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          subject_id := OLD.id;
        ELSE
          subject_id := NEW.id;
        END IF;
        INSERT INTO subject_token_epochs (subject, epoch) VALUES (TG_ARGV[0] || ':' || subject_id, 1)
        ON CONFLICT (subject) DO UPDATE SET epoch = subject_token_epochs.epoch + 1;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "users_bump_token_epoch" AFTER UPDATE ON "users" FOR EACH ROW
       WHEN (OLD.role_id IS DISTINCT FROM NEW.role_id OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
             OR OLD.company_id IS DISTINCT FROM NEW.company_id)
       EXECUTE FUNCTION bump_token_epoch('user')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "users_delete_bump_token_epoch" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION bump_token_epoch('user')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "api_clients_bump_token_epoch" AFTER UPDATE ON "api_clients" FOR EACH ROW
       WHEN (OLD.role_id IS DISTINCT FROM NEW.role_id OR OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
             OR OLD.company_id IS DISTINCT FROM NEW.company_id)
       EXECUTE FUNCTION bump_token_epoch('client')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "api_clients_delete_bump_token_epoch" AFTER DELETE ON "api_clients" FOR EACH ROW EXECUTE FUNCTION bump_token_epoch('client')`,
    );
    // Tokens issued before this migration carry no epoch (0): those of subjects already gone end now.
    await queryRunner.query(
      `INSERT INTO "subject_token_epochs" ("subject", "epoch")
       SELECT 'user:' || "id", 1 FROM "users" WHERE "deleted_at" IS NOT NULL
       UNION ALL SELECT 'client:' || "id", 1 FROM "api_clients" WHERE "revoked_at" IS NOT NULL`,
    );

    await queryRunner.query(`ALTER TABLE "refresh_tokens" ADD "family_expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "refresh_tokens" SET "family_expires_at" = "expires_at"`);
    await queryRunner.query(`ALTER TABLE "refresh_tokens" ALTER COLUMN "family_expires_at" SET NOT NULL`);

    await queryRunner.query(`ALTER TABLE "rate_limit_buckets" ADD "blocked_until" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "rate_limit_buckets" DROP COLUMN "blocked_until"`);
    await queryRunner.query(`ALTER TABLE "refresh_tokens" DROP COLUMN "family_expires_at"`);
    await queryRunner.query(`DROP TRIGGER "api_clients_delete_bump_token_epoch" ON "api_clients"`);
    await queryRunner.query(`DROP TRIGGER "api_clients_bump_token_epoch" ON "api_clients"`);
    await queryRunner.query(`DROP TRIGGER "users_delete_bump_token_epoch" ON "users"`);
    await queryRunner.query(`DROP TRIGGER "users_bump_token_epoch" ON "users"`);
    await queryRunner.query(`DROP FUNCTION bump_token_epoch()`);
    await queryRunner.query(`DROP TABLE "subject_token_epochs"`);
  }
}
