import type { MigrationInterface, QueryRunner } from 'typeorm';
import { redefineRecordChange } from './1796000000100-AddRowVersions';

// What record_change() gains: the project a change belongs to, read from the changed row (the
// project itself, or the project_id of a task, time entry, cost or estimate); null for the rest.
const EDITS: readonly [string, string][] = [
  [
    'changed_id integer := (changed_row ->> id_column)::integer;',
    'changed_id integer := (changed_row ->> id_column)::integer;\n' +
      "        changed_project integer := CASE WHEN tracked_entity = 'projects' THEN (changed_row ->> id_column)::integer ELSE (changed_row ->> 'project_id')::integer END;",
  ],
  [
    'INSERT INTO change_events (company_id, entity, entity_id, kind, changed_fields, origin, transaction_id)',
    'INSERT INTO change_events (company_id, entity, entity_id, kind, changed_fields, origin, transaction_id, project_id)',
  ],
  [
    "nullif(current_setting('platform.change_origin', true), ''), writer_transaction);",
    "nullif(current_setting('platform.change_origin', true), ''), writer_transaction, changed_project);",
  ],
];

/**
 * Each change event names its project (issue 36): a subscription can ask for the changes of some
 * projects only, and a board's stream (issue 41) filters by project, without a look-up per event.
 */
export class ChangeEventsProject1796000000400 implements MigrationInterface {
  name = 'ChangeEventsProject1796000000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "change_events" ADD COLUMN "project_id" integer`);
    await redefineRecordChange(queryRunner, (definition) =>
      EDITS.reduce((text, [before, after]) => {
        if (!text.includes(before)) {
          throw new Error(`record_change() no longer contains: ${before}`);
        }
        return text.split(before).join(after);
      }, definition),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await redefineRecordChange(queryRunner, (definition) =>
      EDITS.reduce((text, [before, after]) => text.split(after).join(before), definition),
    );
    await queryRunner.query(`ALTER TABLE "change_events" DROP COLUMN "project_id"`);
  }
}
