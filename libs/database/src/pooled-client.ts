import { Client, type ClientConfig } from 'pg';
import { currentTenantSettings } from './tenancy/tenant-context';
import { isTransactionControl, ScopedQuery } from './tenancy/scoped-query';

type Callback = (error: Error | null, result?: unknown) => void;

/**
 * pg's Client as every service's pool makes it:
 * - Each statement made inside a unit of work (`runWithTenantSettings`, see TenantScope) carries
 *   that unit's settings in the same round trip (ScopedQuery), so row-level security sees the
 *   company, and TypeORM's repositories and transactions need nothing of their own for it.
 *   Statements outside any unit of work carry nothing, and the tenant tables' policies show them
 *   no row.
 * - A last-resort `error` listener. pg-pool hands a released client to the next waiter before that
 *   waiter listens for errors (TypeORM listens a microtask later), and when PostgreSQL ends a backend
 *   (restart, failover, `pg_terminate_backend`) its error can arrive in the same socket read as the
 *   previous query's last message: with no listener at that instant, Node throws and the process
 *   dies (platform e2e "survives PostgreSQL killing its connections"). The error still reaches the
 *   query in flight, and pg-pool drops the client when it is released, so ignoring it here loses
 *   nothing.
 * - With `preparedStatements: false` (DATABASE_PREPARED_STATEMENTS, for PgBouncer in transaction
 *   mode before 1.21) no statement is named: a prepared statement lives on one server connection,
 *   which such a pooler gives to another client after each transaction.
 */
export class PooledClient extends Client {
  private readonly prepares: boolean;

  constructor(config?: string | (ClientConfig & { preparedStatements?: boolean })) {
    super(config);
    this.prepares = typeof config === 'string' || config?.preparedStatements !== false;
    this.on('error', () => undefined);
  }

  // pg's overloads are many; this covers the two forms TypeORM and ScopedSql use.
  override query(...args: unknown[]): never {
    const settings = currentTenantSettings();
    const [config, values, callback] = args as [unknown, unknown, unknown];
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    if (!settings || typeof text !== 'string' || isTransactionControl(text)) {
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const statement =
      typeof config === 'string' ? { text } : { ...(config as { text: string; name?: string }) };
    if (!this.prepares) {
      delete statement.name;
    }
    const parameters = Array.isArray(values) ? values : (statement as { values?: unknown[] }).values;
    const done = (typeof values === 'function' ? values : callback) as Callback | undefined;
    // pg takes any Submittable; its types only list pg's own.
    const submit = (query: ScopedQuery) => (super.query as (submittable: unknown) => unknown)(query);
    if (done) {
      submit(new ScopedQuery(settings, this.prepares, { ...statement, values: parameters }, done));
      return undefined as never;
    }
    return new Promise((resolve, reject) => {
      submit(
        new ScopedQuery(settings, this.prepares, { ...statement, values: parameters }, (error, result) =>
          error ? reject(error) : resolve(result),
        ),
      );
    }) as never;
  }
}
