import { enableRowLevelSecurity, type RowLevelSecurityPlan } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PLAN: RowLevelSecurityPlan = {
  schema: 'planner',
  runtimeRole: 'planner_runtime',
  tenantTables: ['change_events', 'change_feed_watermarks'],
  crossCompany: [
    // The retention pruner removes expired events whatever their company, and records up to where.
    { table: 'change_events', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'change_feed_watermarks', purpose: 'retention', commands: ['SELECT', 'INSERT', 'UPDATE'] },
  ],
};

// Two advisory-lock keys per company: this one serialises a company's writers of the feed (main-api
// uses its own key in its own database). Whatever else writes the feed takes it too.
export const PLANNER_CHANGE_FEED_LOCK = 1_796_000_600;

/**
 * The planner's change feed (issue 36): every create, update and delete of an allocation, written by
 * a trigger in the transaction of the change (transactional outbox, as main-api's feed), read in
 * cursor order with `GET /v2/events`. A company's writers take one advisory lock per transaction, so
 * cursors grow in commit order within a company and a reader never skips an event that commits
 * later with a lower cursor. Events past EVENTS_RETENTION_DAYS are pruned; the watermark says up to
 * where, so a cursor behind it answers 410.
 */
export class AddChangeFeed1796000000600 implements MigrationInterface {
  name = 'AddChangeFeed1796000000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "change_events" ("cursor" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "company_id" integer NOT NULL, "entity" character varying(40) NOT NULL, "entity_id" uuid NOT NULL, "kind" character varying(10) NOT NULL, "changed_fields" text array NOT NULL DEFAULT '{}', "project_id" integer, "user_id" integer, "transaction_id" bigint NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "change_events_kind_check" CHECK ("kind" IN ('created', 'updated', 'deleted')), CONSTRAINT "change_events_pkey" PRIMARY KEY ("cursor"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "change_events_company_cursor_idx" ON "change_events" ("company_id", "cursor")`,
    );
    await queryRunner.query(
      `CREATE INDEX "change_events_occurred_at_idx" ON "change_events" ("occurred_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "change_feed_watermarks" ("company_id" integer NOT NULL, "pruned_through" bigint NOT NULL, CONSTRAINT "change_feed_watermarks_pkey" PRIMARY KEY ("company_id"))`,
    );
    // Row-level security as on every planner table, and the retention pruner's purpose.
    await enableRowLevelSecurity(queryRunner, PLAN);
    // SET search_path FROM CURRENT: the function finds change_events in this schema whatever the
    // caller's search_path.
    await queryRunner.query(`
      CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        tracked_entity text := TG_ARGV[0];
        new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
        old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
        changed_row jsonb := coalesce(new_row, old_row);
        company integer := (changed_row ->> 'company_id')::integer;
        writer_transaction bigint := pg_current_xact_id()::text::bigint;
        change_kind text;
        fields text[];
        earlier bigint;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          change_kind := 'deleted';
          fields := '{}';
        ELSIF TG_OP = 'INSERT' THEN
          change_kind := 'created';
          SELECT coalesce(array_agg(key ORDER BY key), '{}') INTO fields FROM jsonb_each(new_row)
           WHERE value <> 'null'::jsonb AND key NOT IN ('id', 'company_id', 'created_at', 'updated_at');
        ELSE
          change_kind := 'updated';
          SELECT coalesce(array_agg(key ORDER BY key), '{}') INTO fields FROM jsonb_each(new_row)
           WHERE value IS DISTINCT FROM old_row -> key AND key NOT IN ('created_at', 'updated_at');
          IF cardinality(fields) = 0 THEN
            RETURN NULL;
          END IF;
        END IF;

        PERFORM pg_advisory_xact_lock(${PLANNER_CHANGE_FEED_LOCK}, company);
        -- Later changes of an allocation in the same transaction join its created or updated event.
        IF change_kind = 'updated' THEN
          SELECT "cursor" INTO earlier FROM change_events
           WHERE transaction_id = writer_transaction AND company_id = company AND entity = tracked_entity
             AND entity_id = (changed_row ->> 'id')::uuid AND kind IN ('created', 'updated')
           ORDER BY "cursor" DESC LIMIT 1;
          IF earlier IS NOT NULL THEN
            UPDATE change_events
               SET changed_fields = ARRAY(SELECT DISTINCT field FROM unnest(changed_fields || fields) field ORDER BY field),
                   project_id = (changed_row ->> 'project_id')::integer,
                   user_id = (changed_row ->> 'user_id')::integer
             WHERE "cursor" = earlier;
            RETURN NULL;
          END IF;
        END IF;
        INSERT INTO change_events (company_id, entity, entity_id, kind, changed_fields, project_id, user_id, transaction_id)
        VALUES (company, tracked_entity, (changed_row ->> 'id')::uuid, change_kind, fields,
                (changed_row ->> 'project_id')::integer, (changed_row ->> 'user_id')::integer, writer_transaction);
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER "allocations_record_change" AFTER INSERT OR UPDATE OR DELETE ON "allocations" FOR EACH ROW EXECUTE FUNCTION record_change('allocations')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "allocations_record_change" ON "allocations"`);
    await queryRunner.query(`DROP FUNCTION record_change()`);
    // Their policies go with them; the runtime role keeps its privileges on the other tables.
    await queryRunner.query(`DROP TABLE "change_feed_watermarks"`);
    await queryRunner.query(`DROP TABLE "change_events"`);
  }
}
