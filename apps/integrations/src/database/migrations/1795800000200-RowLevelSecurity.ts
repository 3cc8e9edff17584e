import {
  disableRowLevelSecurity,
  enableRowLevelSecurity,
  type RowLevelSecurityPlan,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every integrations table with company data, and the few reads and writes that span companies. */
const PLAN: RowLevelSecurityPlan = {
  schema: 'integrations',
  runtimeRole: 'integrations_runtime',
  tenantTables: [
    'external_id_generations',
    'external_mappings',
    'feed_cursors',
    'webhook_deliveries',
    'webhook_delivery_attempts',
    'webhook_events',
    'webhook_signatures',
    'webhook_sources',
    'webhook_subscriptions',
  ],
  crossCompany: [
    // An inbound webhook names its source; the source says the company.
    { table: 'webhook_sources', purpose: 'webhook-intake', commands: ['SELECT'] },
    // The delivery worker finds the companies with work and claims deliveries fairly among them.
    { table: 'webhook_subscriptions', purpose: 'delivery', commands: ['SELECT'] },
    { table: 'feed_cursors', purpose: 'delivery', commands: ['SELECT', 'INSERT'] },
    { table: 'webhook_deliveries', purpose: 'delivery', commands: ['SELECT', 'UPDATE'] },
    // The claim counts each company's and each host's attempts under way.
    { table: 'webhook_delivery_attempts', purpose: 'delivery', commands: ['SELECT'] },
    // The retention pruner removes expired rows whatever their company.
    { table: 'webhook_events', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'webhook_deliveries', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
    { table: 'webhook_delivery_attempts', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
  ],
};

export class RowLevelSecurity1795800000200 implements MigrationInterface {
  name = 'RowLevelSecurity1795800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await enableRowLevelSecurity(queryRunner, PLAN);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await disableRowLevelSecurity(queryRunner, PLAN);
  }
}
