import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { pgBouncerVersion, startTestPgBouncer, testServerUrl, type TestPgBouncer } from '@platform/testing';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/**
 * main-api behind PgBouncer in transaction mode, configured as the README says ("Behind PgBouncer in
 * transaction mode"): a login that is the runtime role (DATABASE_ROLE=login) with the schema as its
 * search_path default, prepared statements off (Debian's PgBouncer is 1.18), LISTEN straight to
 * PostgreSQL. Two server connections are shared by the service's four pooled clients, transaction by
 * transaction, so a setting or a prepared statement left on a server connection would reach another
 * request: the two companies' requests run interleaved and each must see exactly its own rows.
 */
describe(`main-api through PgBouncer in transaction mode (${pgBouncerVersion()})`, () => {
  const login = `main_api_pooled_${randomBytes(4).toString('hex')}`;
  let bouncer: TestPgBouncer;
  let app: MainApiTestApp;

  const admin = async (sql: string) => {
    const client = new Client({ connectionString: testServerUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    bouncer = await startTestPgBouncer(testServerUrl(), [login], 2);
    app = await startMainApiTestApp(['Pooled A', 'Pooled B'], {}, async (database) => {
      // The runtime role exists once the migrations have run (they create it).
      await admin(`CREATE ROLE ${login} LOGIN IN ROLE main_api_runtime`);
      await admin(`ALTER ROLE ${login} SET search_path = main_api, public`);
      return {
        DATABASE_URL: bouncer.url(database.name, login),
        DATABASE_ROLE: 'login',
        DATABASE_PREPARED_STATEMENTS: 'false',
        DATABASE_LISTEN_URL: database.url,
      };
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await bouncer?.stop();
    await admin(`DROP ROLE IF EXISTS ${login}`);
  });

  it('connects as the pooled login, under row-level security', async () => {
    const [role] = await app.dataSource.query<{ rolsuper: boolean; rolbypassrls: boolean }[]>(
      'SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1',
      [login],
    );
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('interleaved writes and reads of two companies each see exactly their own rows', async () => {
    const [a, b] = app.companies.map((company) => company.companyId);
    const work = Array.from({ length: 24 }, (_, index) => async () => {
      const company = index % 2 === 0 ? a : b;
      const client = await app.call(
        'POST',
        '/clients',
        { name: `Client ${index}`, currency_id: 1 },
        { company },
      );
      expect(client.statusCode).toBe(201);
      const clientId = client.json<{ id: number }>().id;
      const project = await app.call(
        'POST',
        '/projects',
        { name: `Project ${index}`, client_id: clientId, income_type: 'one_time', estimated: 1000 },
        { company },
      );
      expect(project.statusCode).toBe(201);
      const projectId = project.json<{ id: number }>().id;
      const detail = await app.call('GET', `/projects/${projectId}`, undefined, { company });
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toEqual(expect.objectContaining({ id: projectId, name: `Project ${index}` }));
      // The other company does not see it, on whichever server connection it lands.
      const other = await app.call('GET', `/projects/${projectId}`, undefined, {
        company: company === a ? b : a,
      });
      expect(other.statusCode).toBe(404);
    });
    await Promise.all(work.map((run) => run()));

    for (const company of [a, b]) {
      const clients = await app.call('GET', '/clients?page=false', undefined, { company });
      expect(clients.statusCode).toBe(200);
      const names = clients.json<{ name: string }[]>().map((client) => client.name);
      const expected = Array.from({ length: 24 }, (_, index) => index)
        .filter((index) => (index % 2 === 0) === (company === a))
        .map((index) => `Client ${index}`);
      expect(names.filter((name) => name.startsWith('Client ')).sort()).toEqual(expected.sort());
    }
  });

  it('nothing was prepared on the server connections, and none kept a company', async () => {
    const direct = new Client({ connectionString: app.service.database.url });
    await direct.connect();
    try {
      // PgBouncer's server connections to this database, seen from PostgreSQL.
      const { rows } = await direct.query<{ count: string }>(
        'SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND usename = $1',
        [login],
      );
      expect(Number(rows[0]?.count)).toBeLessThanOrEqual(2);
    } finally {
      await direct.end();
    }
    // Through the pooler, on whatever server connection comes: no company, no prepared statement.
    const pooled = new Client({ connectionString: bouncer.url(app.service.database.name, login) });
    await pooled.connect();
    try {
      for (let probe = 0; probe < 4; probe += 1) {
        const { rows } = await pooled.query<{ company: string | null; prepared: string }>(
          "SELECT current_setting('app.company_id', true) AS company, (SELECT count(*) FROM pg_prepared_statements) AS prepared",
        );
        expect(rows[0]?.company ?? '').toBe('');
        expect(rows[0]?.prepared).toBe('0');
      }
    } finally {
      await pooled.end();
    }
  });
});
