import type { QueryRunner } from 'typeorm';
import type { CrossCompanyPurpose } from './tenant-context';

/**
 * The SQL commands a cross-company purpose may run on one table. `LOCK` is `SELECT … FOR UPDATE`
 * without the right to change the row (an UPDATE policy whose new rows must satisfy `false`): what
 * the retention pruner needs to skip rows another transaction holds.
 */
export type PolicyCommand = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE' | 'LOCK';

export interface CrossCompanyAccess {
  table: string;
  purpose: CrossCompanyPurpose;
  commands: readonly PolicyCommand[];
}

export interface RowLevelSecurityPlan {
  schema: string;
  /** The role the service connects as (DATABASE_ROLE): not the owner, so policies always apply. */
  runtimeRole: string;
  /** Every table with a `company_id`: its rows are visible and writable only in that company's scope. */
  tenantTables: readonly string[];
  /** The table of the companies themselves, whose `id` is the company (main-api's `companies`). */
  companiesTable?: string;
  /** The few cross-company reads and writes, each named by its purpose (TenantSettings.purpose). */
  crossCompany?: readonly CrossCompanyAccess[];
  /** Tables the runtime role must not touch at all. */
  ownerOnlyTables?: readonly string[];
}

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function ident(name: string): string {
  if (!NAME.test(name)) {
    throw new Error(`row-level security: "${name}" is not a plain lower-case name`);
  }
  return `"${name}"`;
}

/**
 * The company of the current unit of work, NULL outside one (so no row matches). A scalar subquery,
 * so PostgreSQL evaluates it once per statement (an InitPlan) instead of once per row: per row, the
 * setting's lookup cost the 100,000-project list a tenth of its throughput (bench/README.md, round 6).
 */
export const CURRENT_COMPANY = "(SELECT NULLIF(current_setting('app.company_id', true), '')::integer)";
/** The cross-company purpose of the current unit of work, NULL outside one; once per statement too. */
export const CURRENT_PURPOSE = "(SELECT NULLIF(current_setting('app.purpose', true), ''))";

/**
 * Turns row-level security on for a service's schema, run by its migration as the tables' owner:
 * - the runtime role (created when missing and the migrating user may) gets the table privileges it
 *   needs, now and for tables created later, and nothing on the migrations table;
 * - every tenant table gets ENABLE and FORCE ROW LEVEL SECURITY (FORCE: the owner too) and one policy,
 *   `company_scope`: a row is visible and may be written only when its `company_id` is the unit of
 *   work's `app.company_id`, a transaction-local setting (TenantScope). Outside a unit of work the
 *   setting is empty and nothing matches: reads are empty and writes are refused;
 * - each cross-company access is one more policy per command, `<purpose>_<command>`, true only while
 *   `app.purpose` names that purpose.
 */
export async function enableRowLevelSecurity(runner: QueryRunner, plan: RowLevelSecurityPlan): Promise<void> {
  const schema = ident(plan.schema);
  const role = ident(plan.runtimeRole);
  await runner.query(`DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${plan.runtimeRole}') THEN
        CREATE ROLE ${role} NOLOGIN;
      END IF;
    EXCEPTION
      -- Another database of the same server created it at the same moment (tests run in parallel).
      WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
  await runner.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
  await runner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
  await runner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
  await runner.query(
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`,
  );
  await runner.query(
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${role}`,
  );
  for (const table of ['migrations', ...(plan.ownerOnlyTables ?? [])]) {
    await runner.query(`REVOKE ALL ON ${schema}.${ident(table)} FROM ${role}`);
  }
  for (const table of plan.tenantTables) {
    const name = `${schema}.${ident(table)}`;
    await runner.query(`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`);
    await runner.query(`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`);
    await runner.query(
      `CREATE POLICY company_scope ON ${name} USING (company_id = ${CURRENT_COMPANY}) WITH CHECK (company_id = ${CURRENT_COMPANY})`,
    );
  }
  if (plan.companiesTable) {
    const name = `${schema}.${ident(plan.companiesTable)}`;
    await runner.query(`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`);
    await runner.query(`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`);
    await runner.query(
      `CREATE POLICY company_scope ON ${name} USING (id = ${CURRENT_COMPANY}) WITH CHECK (id = ${CURRENT_COMPANY})`,
    );
  }
  for (const access of plan.crossCompany ?? []) {
    if (!plan.tenantTables.includes(access.table) && access.table !== plan.companiesTable) {
      throw new Error(`row-level security: ${access.table} is not a tenant table of ${plan.schema}`);
    }
  }
  await grantCrossCompanyAccess(runner, plan.schema, plan.crossCompany ?? []);
}

function policyOf(access: CrossCompanyAccess, command: PolicyCommand): string {
  return ident(`${access.purpose.replace(/-/g, '_')}_${command.toLowerCase()}`);
}

/**
 * One more cross-company access to tables whose row-level security an earlier migration turned on:
 * a policy per command, `<purpose>_<command>`, true only while `app.purpose` names that purpose.
 */
export async function grantCrossCompanyAccess(
  runner: QueryRunner,
  schemaName: string,
  accesses: readonly CrossCompanyAccess[],
): Promise<void> {
  const schema = ident(schemaName);
  for (const access of accesses) {
    for (const command of access.commands) {
      const condition = `${CURRENT_PURPOSE} = '${access.purpose}'`;
      const clause =
        command === 'INSERT'
          ? `WITH CHECK (${condition})`
          : command === 'LOCK'
            ? `USING (${condition}) WITH CHECK (false)`
            : `USING (${condition})`;
      await runner.query(
        `CREATE POLICY ${policyOf(access, command)} ON ${schema}.${ident(access.table)} FOR ${command === 'LOCK' ? 'UPDATE' : command} ${clause}`,
      );
    }
  }
}

/** Undoes `grantCrossCompanyAccess`. */
export async function revokeCrossCompanyAccess(
  runner: QueryRunner,
  schemaName: string,
  accesses: readonly CrossCompanyAccess[],
): Promise<void> {
  for (const access of accesses) {
    for (const command of access.commands) {
      await runner.query(
        `DROP POLICY ${policyOf(access, command)} ON ${ident(schemaName)}.${ident(access.table)}`,
      );
    }
  }
}

/** Undoes `enableRowLevelSecurity` (the role stays: other databases of the server may use it). */
export async function disableRowLevelSecurity(
  runner: QueryRunner,
  plan: RowLevelSecurityPlan,
): Promise<void> {
  const schema = ident(plan.schema);
  const role = ident(plan.runtimeRole);
  await revokeCrossCompanyAccess(runner, plan.schema, plan.crossCompany ?? []);
  for (const table of [...plan.tenantTables, ...(plan.companiesTable ? [plan.companiesTable] : [])]) {
    const name = `${schema}.${ident(table)}`;
    await runner.query(`DROP POLICY company_scope ON ${name}`);
    await runner.query(`ALTER TABLE ${name} NO FORCE ROW LEVEL SECURITY`);
    await runner.query(`ALTER TABLE ${name} DISABLE ROW LEVEL SECURITY`);
  }
  await runner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} REVOKE ALL ON TABLES FROM ${role}`);
  await runner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} REVOKE ALL ON SEQUENCES FROM ${role}`);
  await runner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`);
  await runner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role}`);
  await runner.query(`REVOKE USAGE ON SCHEMA ${schema} FROM ${role}`);
}
