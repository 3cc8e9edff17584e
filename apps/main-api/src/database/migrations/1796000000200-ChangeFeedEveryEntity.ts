import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed for every entity kind (issue 36): the ones AddChangeFeed tracked were those the
 * integrations service writes by external id; tasks, hours, fees, transactions, project costs and
 * estimates, ratecards (with their prices), labels and products changed silently. The same trigger
 * function, with the kinds' names as in their routes (libs/contracts CHANGE_FEED_ENTITIES).
 */
const TRACKED: readonly { table: string; entity: string; idColumn?: string; asField?: string }[] = [
  { table: 'tasks', entity: 'tasks' },
  { table: 'time_entries', entity: 'hours' },
  { table: 'fees', entity: 'fees' },
  { table: 'transactions', entity: 'transactions' },
  { table: 'project_costs', entity: 'project-costs' },
  { table: 'project_estimates', entity: 'project-estimates' },
  { table: 'ratecards', entity: 'ratecards' },
  { table: 'ratecard_prices', entity: 'ratecards', idColumn: 'ratecard_id', asField: 'prices' },
  { table: 'labels', entity: 'labels' },
  { table: 'products', entity: 'products' },
];

export class ChangeFeedEveryEntity1796000000200 implements MigrationInterface {
  name = 'ChangeFeedEveryEntity1796000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
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
  }
}
