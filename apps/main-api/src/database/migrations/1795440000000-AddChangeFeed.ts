import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed (issue 10): an event row per create, update and delete of the entities the
 * integrations service handles, written by triggers in the transaction of the change.
 *
 * Ordering: a trigger takes a per-company transaction lock before drawing a cursor, so within a
 * company cursors are drawn in commit order and a reader never sees cursor N+1 before N is final
 * (the feed never "fills in" behind a consumer). The cost is that a company's writes to these tables
 * serialise from their first tracked change to commit; those transactions are single requests.
 */
const TRACKED: readonly { table: string; entity: string; idColumn?: string; asField?: string }[] = [
  { table: 'brands', entity: 'brands' },
  { table: 'clients', entity: 'clients' },
  { table: 'contracts', entity: 'contracts' },
  { table: 'contract_members', entity: 'contracts', idColumn: 'contract_id', asField: 'users' },
  { table: 'positions', entity: 'positions' },
  { table: 'position_categories', entity: 'position-categories' },
  { table: 'projects', entity: 'projects' },
  { table: 'project_positions', entity: 'projects', idColumn: 'project_id', asField: 'users_positions' },
  { table: 'project_categories', entity: 'projects', idColumn: 'project_id', asField: 'categories' },
  { table: 'teams', entity: 'teams' },
  { table: 'team_members', entity: 'teams', idColumn: 'team_id', asField: 'users' },
  { table: 'users', entity: 'users' },
  { table: 'user_leaves', entity: 'user-leaves' },
  { table: 'workspaces', entity: 'workspaces' },
  { table: 'working_time_entries', entity: 'working-time', idColumn: 'user_id', asField: 'entries' },
];

// pg_advisory_xact_lock(key1, key2): key1 names this lock family, key2 is the company.
const CHANGE_FEED_LOCK = 7301;

export class AddChangeFeed1795440000000 implements MigrationInterface {
  name = 'AddChangeFeed1795440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "change_events" ("cursor" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "company_id" integer NOT NULL, "entity" character varying(40) NOT NULL, "kind" character varying(10) NOT NULL, "entity_id" integer NOT NULL, "changed_fields" text array NOT NULL DEFAULT '{}', "origin" character varying(40), "transaction_id" bigint NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "change_events_pkey" PRIMARY KEY ("cursor"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "change_events" ADD CONSTRAINT "change_events_kind_check" CHECK ("kind" IN ('created', 'updated', 'deleted'))`,
    );
    await queryRunner.query(
      `CREATE INDEX "change_events_company_cursor_idx" ON "change_events" ("company_id", "cursor") `,
    );
    await queryRunner.query(
      `CREATE INDEX "change_events_occurred_at_idx" ON "change_events" ("occurred_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "change_events_transaction_idx" ON "change_events" ("transaction_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "change_feed_watermarks" ("company_id" integer NOT NULL, "pruned_through" bigint NOT NULL, CONSTRAINT "change_feed_watermarks_pkey" PRIMARY KEY ("company_id"))`,
    );
    // SET search_path FROM CURRENT: the function finds change_events in this schema whatever the
    // caller's search_path.
    await queryRunner.query(`
      CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        tracked_entity text := TG_ARGV[0];
        id_column text := coalesce(TG_ARGV[1], 'id');
        as_field text := TG_ARGV[2];
        new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
        old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
        changed_row jsonb := coalesce(new_row, old_row);
        company integer := (changed_row ->> 'company_id')::integer;
        changed_id integer := (changed_row ->> id_column)::integer;
        writer_transaction bigint := pg_current_xact_id()::text::bigint;
        change_kind text;
        fields text[];
        earlier bigint;
      BEGIN
        IF as_field IS NOT NULL THEN
          change_kind := 'updated';
          fields := ARRAY[as_field];
        ELSIF TG_OP = 'DELETE' OR (old_row ->> 'deleted_at' IS NULL AND new_row ->> 'deleted_at' IS NOT NULL) THEN
          change_kind := 'deleted';
          fields := '{}';
        ELSIF TG_OP = 'INSERT' OR (old_row ->> 'deleted_at' IS NOT NULL AND new_row ->> 'deleted_at' IS NULL) THEN
          change_kind := 'created';
          SELECT coalesce(array_agg(key ORDER BY key), '{}') INTO fields FROM jsonb_each(new_row)
           WHERE value <> 'null'::jsonb AND key NOT IN ('id', 'company_id', 'created_at', 'updated_at', 'deleted_at');
        ELSE
          change_kind := 'updated';
          SELECT coalesce(array_agg(key ORDER BY key), '{}') INTO fields FROM jsonb_each(new_row)
           WHERE value IS DISTINCT FROM old_row -> key AND key NOT IN ('created_at', 'updated_at');
        END IF;
        -- Credentials never name themselves in the feed.
        fields := ARRAY(SELECT field FROM unnest(fields) field WHERE field !~ '(password|secret|hash)');
        IF change_kind = 'updated' AND cardinality(fields) = 0 THEN
          RETURN NULL;
        END IF;

        PERFORM pg_advisory_xact_lock(${CHANGE_FEED_LOCK}, company);
        -- Later changes of an entity in the same transaction join its created or updated event.
        IF change_kind = 'updated' THEN
          SELECT "cursor" INTO earlier FROM change_events
           WHERE transaction_id = writer_transaction AND company_id = company AND entity = tracked_entity
             AND entity_id = changed_id AND kind IN ('created', 'updated')
           ORDER BY "cursor" DESC LIMIT 1;
          IF earlier IS NOT NULL THEN
            UPDATE change_events
               SET changed_fields = ARRAY(SELECT DISTINCT field FROM unnest(changed_fields || fields) field ORDER BY field)
             WHERE "cursor" = earlier;
            RETURN NULL;
          END IF;
        END IF;
        INSERT INTO change_events (company_id, entity, entity_id, kind, changed_fields, origin, transaction_id)
        VALUES (company, tracked_entity, changed_id, change_kind, fields,
                nullif(current_setting('platform.change_origin', true), ''), writer_transaction);
        RETURN NULL;
      END
      $$`);
    for (const { table, entity, idColumn, asField } of TRACKED) {
      const args = [entity, idColumn ?? 'id', ...(asField ? [asField] : [])]
        .map((arg) => `'${arg}'`)
        .join(', ');
      await queryRunner.query(
        `CREATE TRIGGER "${table}_record_change" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION record_change(${args})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of TRACKED) {
      await queryRunner.query(`DROP TRIGGER "${table}_record_change" ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION record_change()`);
    await queryRunner.query(`DROP TABLE "change_feed_watermarks"`);
    await queryRunner.query(`DROP TABLE "change_events"`);
  }
}
