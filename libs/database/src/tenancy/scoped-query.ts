import { Query } from 'pg';
import type { TenantSettings } from './tenant-context';

/** Prepared once per connection; sets the unit of work's settings for the current transaction only. */
export const SETTINGS_STATEMENT = 'platform_tenant_settings';
export const SETTINGS_SQL =
  "SELECT set_config('app.company_id', $1, true), set_config('platform.change_origin', $2, true), " +
  "set_config('app.purpose', $3, true)";

/** The settings statement's parameters: an empty string is PostgreSQL's unset custom setting. */
export function settingsValues(settings: TenantSettings): string[] {
  return [
    settings.companyId === undefined ? '' : String(settings.companyId),
    settings.changeOrigin ?? '',
    settings.purpose ?? '',
  ];
}

/** Statements that must run as they are: a transaction's control, and SET TRANSACTION (first in it). */
const TRANSACTION_CONTROL =
  /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|SET\s+TRANSACTION)\b/i;

export function isTransactionControl(text: string): boolean {
  return TRANSACTION_CONTROL.test(text);
}

/** pg's wire-protocol side of a query (the messages the Submittable protocol hands to `submit`). */
interface WireConnection {
  parsedStatements: Record<string, string>;
  parse(message: { text: string; name: string; types?: unknown[] }): void;
  bind(message: { statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows?: number }): void;
}

/** The parts of pg's Query this class builds on (not in its type declarations). */
interface PgQuery {
  name?: string;
  hasBeenParsed(connection: WireConnection): boolean;
  prepare(connection: WireConnection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
  handleError(error: Error, connection: unknown): void;
}
const PgQuery = Query as unknown as new (config: object) => PgQuery;

/**
 * A statement sent together with `SELECT set_config(..., true)` of its unit of work's settings, in
 * one round trip: both go in the same extended-protocol pipeline, before one Sync, so PostgreSQL runs
 * them in one transaction (the implicit one, or the explicit one the connection is in) and the
 * settings end with it. Nothing outlives the transaction on the connection, which is what lets a
 * pooler in transaction mode (PgBouncer) share it, and no BEGIN/COMMIT is added to a lone read.
 *
 * Built on pg's Query and its message handlers (the protocol pg-cursor and pg-query-stream use); the
 * settings statement's own answer (one row, one CommandComplete) is consumed here, so the caller
 * sees exactly the result of its statement. `scoped-query.spec.ts` proves it on a real server.
 */
export class ScopedQuery extends PgQuery {
  private settingsAnswered = false;
  private parsedInThisPipeline = false;

  constructor(
    private readonly settings: TenantSettings,
    config: { text: string; values?: unknown[]; name?: string },
    callback?: (error: Error | null, result?: unknown) => void,
  ) {
    // Always the extended protocol: the settings statement must share the pipeline.
    super({ ...config, queryMode: 'extended', callback });
  }

  /** Called by Query.submit with the stream corked: the settings statement first, then the query. */
  override prepare(connection: WireConnection): void {
    if (connection.parsedStatements[SETTINGS_STATEMENT] === undefined) {
      connection.parse({ text: SETTINGS_SQL, name: SETTINGS_STATEMENT });
      connection.parsedStatements[SETTINGS_STATEMENT] = SETTINGS_SQL;
    }
    connection.bind({ statement: SETTINGS_STATEMENT, values: settingsValues(this.settings) });
    connection.execute({ portal: '' });
    this.parsedInThisPipeline = Boolean(this.name) && !this.hasBeenParsed(connection);
    super.prepare(connection);
  }

  override handleDataRow(message: unknown): void {
    if (this.settingsAnswered) {
      super.handleDataRow(message);
    }
  }

  override handleCommandComplete(message: unknown, connection: unknown): void {
    if (!this.settingsAnswered) {
      this.settingsAnswered = true;
      return;
    }
    super.handleCommandComplete(message, connection);
  }

  override handleError(error: Error, connection: WireConnection): void {
    // pg records a named statement as parsed when the pipeline's first ParseComplete arrives, which
    // may have been the settings statement's: if this statement's own Parse then failed, forget it.
    if (this.parsedInThisPipeline && this.name) {
      delete connection.parsedStatements[this.name];
    }
    super.handleError(error, connection);
  }
}
