import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';

export interface RowLevelSecurityCheck {
  /** The test database, as its owner (the migrations' login). */
  ownerUrl: string;
  schema: string;
  runtimeRole: string;
  /** A company with rows in the tables: its scope must see exactly those. */
  companyId: number;
  /** Another company: a write for it from the first company's scope must be refused. */
  otherCompanyId: number;
}

export interface RowLevelSecurityReport {
  /** Every table holding company data (a `company_id` column, or main-api's `companies`). */
  tenantTables: string[];
  /** The tenant tables that had rows of `companyId` when checked: the reads proven non-trivially. */
  tablesWithRows: string[];
  /** What does not hold, one line per table and rule; empty when all is well. */
  failures: string[];
}

const RLS_VIOLATION = '42501';

/**
 * Proves row-level security table by table, as the service's runtime role, on a database the test
 * has filled through the API: each tenant table has RLS enabled and forced with its `company_scope`
 * policy; with no scope set it reads empty and refuses or misses every write; with a company's
 * scope it reads exactly that company's rows and refuses a row of another company.
 */
export async function checkRowLevelSecurity(check: RowLevelSecurityCheck): Promise<RowLevelSecurityReport> {
  const owner = new Client({ connectionString: check.ownerUrl });
  const runtime = new Client({
    connectionString: check.ownerUrl,
    options: `-c role=${check.runtimeRole} -c search_path=${check.schema}`,
  });
  await owner.connect();
  await runtime.connect();
  const failures: string[] = [];
  const tablesWithRows: string[] = [];
  try {
    const { rows: tables } = await owner.query<{
      table: string;
      company_column: string;
      enabled: boolean;
      forced: boolean;
      has_policy: boolean;
    }>(
      `SELECT c.relname AS table,
              CASE WHEN c.relname = 'companies' THEN 'id' ELSE 'company_id' END AS company_column,
              c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
              EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname
                        AND p.policyname = 'company_scope') AS has_policy
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r'
          AND (c.relname = 'companies' OR EXISTS (
                SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped))
        ORDER BY c.relname`,
      [check.schema],
    );
    for (const { table, company_column: column, enabled, forced, has_policy: hasPolicy } of tables) {
      const name = `"${check.schema}"."${table}"`;
      if (!enabled || !forced || !hasPolicy) {
        failures.push(
          `${table}: row-level security enabled ${enabled}, forced ${forced}, company_scope ${hasPolicy}`,
        );
      }
      const ownRows = Number(
        (await owner.query(`SELECT count(*) FROM ${name} WHERE ${column} = $1`, [check.companyId])).rows[0]
          .count,
      );
      if (ownRows > 0) {
        tablesWithRows.push(table);
      }
      const unscoped = Number((await runtime.query(`SELECT count(*) FROM ${name}`)).rows[0].count);
      if (unscoped !== 0) {
        failures.push(`${table}: ${unscoped} rows visible with no scope`);
      }
      const scoped = await inTransaction(runtime, check.companyId, () =>
        runtime.query(`SELECT count(*) FROM ${name}`),
      );
      if (Number(scoped.rows[0].count) !== ownRows) {
        failures.push(`${table}: the company's scope sees ${scoped.rows[0].count} rows, it owns ${ownRows}`);
      }
      await inTransaction(runtime, undefined, async () => {
        const updated = await runtime.query(`UPDATE ${name} SET ${column} = ${column}`);
        const deleted = await runtime.query(`DELETE FROM ${name}`);
        if (updated.rowCount !== 0 || deleted.rowCount !== 0) {
          failures.push(
            `${table}: with no scope an UPDATE reached ${updated.rowCount} rows, a DELETE ${deleted.rowCount}`,
          );
        }
      });
      const refusals: [number | undefined, number][] = [
        [undefined, check.companyId],
        [check.companyId, check.otherCompanyId],
      ];
      for (const [scope, company] of refusals) {
        const code = await inTransaction(runtime, scope, () =>
          runtime.query(`INSERT INTO ${name} (${column}) VALUES ($1)`, [company]).then(
            () => 'inserted',
            (error: { code?: string }) => error.code,
          ),
        );
        if (code !== RLS_VIOLATION) {
          failures.push(
            `${table}: an INSERT for company ${company} ${scope ? `in company ${scope}'s scope` : 'with no scope'} answered ${code}, not a row-level security refusal`,
          );
        }
      }
    }
    return { tenantTables: tables.map((row) => row.table), tablesWithRows, failures };
  } finally {
    await runtime.end();
    await owner.end();
  }
}

/** Runs `work` in a transaction that is always rolled back, in a company's scope or none. */
async function inTransaction<T>(
  client: Client,
  companyId: number | undefined,
  work: () => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    if (companyId !== undefined) {
      await client.query("SELECT set_config('app.company_id', $1, true)", [String(companyId)]);
    }
    return await work();
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * Every GET of the service's OpenAPI document, with each path parameter set to every id from 1 to
 * `maxId`, called with the other company's token: no answer may contain `marker`, a text found only
 * in the first company's rows. Answers how many calls were made.
 */
export async function expectNoAnswerLeaks(options: {
  app: NestFastifyApplication;
  /** A GET as the other company (its token), answering the response. */
  get(url: string): Promise<{ statusCode: number; body: string }>;
  marker: string;
  maxId: number;
}): Promise<number> {
  const document = (await options.app.inject({ method: 'GET', url: '/docs-json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  const leaks: string[] = [];
  let calls = 0;
  for (const [path, methods] of Object.entries(document.paths)) {
    if (!('get' in methods)) {
      continue;
    }
    const ids = /\{[^}]+\}/.test(path) ? Array.from({ length: options.maxId }, (_, index) => index + 1) : [0];
    for (const id of ids) {
      const url = path.replace(/\{[^}]+\}/g, String(id));
      const response = await options.get(url);
      calls += 1;
      if (response.body.includes(options.marker)) {
        leaks.push(`GET ${url} answered ${response.statusCode} with the other company's data`);
      }
    }
  }
  expect(leaks).toEqual([]);
  return calls;
}
