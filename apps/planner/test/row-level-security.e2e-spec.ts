import { runMigrations } from '@platform/database';
import { checkRowLevelSecurity, createTestDatabase, type TestDatabase } from '@platform/testing';
import { Client } from 'pg';
import { plannerOwnerDataSourceOptions } from '../src/database/planner.data-source';

/**
 * Row-level security on the planner's table, as its runtime role, on rows of two companies. The
 * allocation e2e tests prove the service reads and writes through its scope; this one proves what
 * PostgreSQL does to a statement that has none.
 */
describe('planner row-level security (e2e)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('planner_rls');
    await runMigrations(
      plannerOwnerDataSourceOptions({
        DATABASE_URL: database.url,
        DATABASE_POOL_MAX: 2,
        DATABASE_STATEMENT_TIMEOUT_MS: 0,
      }),
    );
    const owner = new Client({ connectionString: database.url });
    await owner.connect();
    try {
      for (const [company, user] of [
        [1, 10],
        [1, 11],
        [2, 20],
      ]) {
        await owner.query(
          `INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id)
           VALUES ($1, $2, 7, '2026-01-05', '2026-01-09', 8, $2)`,
          [company, user],
        );
      }
    } finally {
      await owner.end();
    }
  });

  afterAll(() => database.drop());

  it('allocations and the change feed: forced RLS, empty and unwritable without a scope, exactly its rows with one', async () => {
    const report = await checkRowLevelSecurity({
      ownerUrl: database.url,
      schema: 'planner',
      runtimeRole: 'planner_runtime',
      companyId: 1,
      otherCompanyId: 2,
    });

    expect(report).toEqual({
      tenantTables: [
        'allocation_days',
        'allocations',
        'change_events',
        'change_feed_watermarks',
        'event_stream_tickets',
        'placeholders',
        'planner_settings',
        'scenario_allocation_days',
        'scenario_allocations',
        'scenario_placeholders',
        'scenario_removals',
        'scenarios',
      ],
      // The allocation's event was written by the trigger, in its company.
      tablesWithRows: ['allocations', 'change_events'],
      failures: [],
    });
  });
});
