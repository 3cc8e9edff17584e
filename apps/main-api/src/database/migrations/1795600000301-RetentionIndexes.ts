import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: the retention pruner asks every run which refresh tokens' logins ended long ago and which
 * sign-in failure windows closed long ago; these indexes answer without reading the whole tables
 * (idempotency_records and change_events already have theirs).
 */
export class RetentionIndexes1795600000301 implements MigrationInterface {
  name = 'RetentionIndexes1795600000301';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "refresh_tokens_family_expires_at_idx" ON "refresh_tokens"  ("family_expires_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "rate_limit_buckets_window_ends_at_idx" ON "rate_limit_buckets"  ("window_ends_at") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "main_api"."rate_limit_buckets_window_ends_at_idx"`);
    await queryRunner.query(`DROP INDEX "main_api"."refresh_tokens_family_expires_at_idx"`);
  }
}
