import {
  disableRowLevelSecurity,
  enableRowLevelSecurity,
  type RowLevelSecurityPlan,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The planner's one table with company data; nothing in the planner spans companies. */
const PLAN: RowLevelSecurityPlan = {
  schema: 'planner',
  runtimeRole: 'planner_runtime',
  tenantTables: ['allocations'],
};

export class RowLevelSecurity1795800000300 implements MigrationInterface {
  name = 'RowLevelSecurity1795800000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await enableRowLevelSecurity(queryRunner, PLAN);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await disableRowLevelSecurity(queryRunner, PLAN);
  }
}
