import {
  disableRowLevelSecurity,
  enableRowLevelSecurity,
  type RowLevelSecurityPlan,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every main-api table with company data, and the few reads and writes that span companies. */
const PLAN: RowLevelSecurityPlan = {
  schema: 'main_api',
  runtimeRole: 'main_api_runtime',
  companiesTable: 'companies',
  tenantTables: [
    'api_clients',
    'authorization_codes',
    'brands',
    'change_events',
    'change_feed_watermarks',
    'clients',
    'contract_members',
    'contracts',
    'fees',
    'idempotency_records',
    'labels',
    'oauth_apps',
    'position_categories',
    'positions',
    'products',
    'project_categories',
    'project_costs',
    'project_estimates',
    'project_positions',
    'projects',
    'ratecard_prices',
    'ratecards',
    'refresh_tokens',
    'task_attachments',
    'tasks',
    'team_members',
    'teams',
    'time_entries',
    'transactions',
    'user_leaves',
    'users',
    'working_time_entries',
    'workspaces',
  ],
  crossCompany: [
    // The token endpoint finds the account a credential belongs to before it knows the company.
    { table: 'api_clients', purpose: 'authentication', commands: ['SELECT', 'UPDATE'] },
    { table: 'users', purpose: 'authentication', commands: ['SELECT', 'UPDATE'] },
    { table: 'refresh_tokens', purpose: 'authentication', commands: ['SELECT', 'INSERT', 'UPDATE'] },
    { table: 'authorization_codes', purpose: 'authentication', commands: ['SELECT', 'INSERT', 'UPDATE'] },
    { table: 'oauth_apps', purpose: 'authentication', commands: ['SELECT'] },
    // The retention pruner removes expired rows whatever their company.
    { table: 'idempotency_records', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'refresh_tokens', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'authorization_codes', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'change_events', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'change_feed_watermarks', purpose: 'retention', commands: ['SELECT', 'INSERT', 'UPDATE'] },
    // Provisioning creates the company before there is one to scope to.
    { table: 'companies', purpose: 'provisioning', commands: ['SELECT', 'INSERT'] },
  ],
};

export class RowLevelSecurity1795800000100 implements MigrationInterface {
  name = 'RowLevelSecurity1795800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await enableRowLevelSecurity(queryRunner, PLAN);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await disableRowLevelSecurity(queryRunner, PLAN);
  }
}
