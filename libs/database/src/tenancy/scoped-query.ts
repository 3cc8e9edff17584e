import { Query } from 'pg';
import type { TenantSettings } from './tenant-context';

/** Prepared once per connection; sets the unit of work's settings for the current transaction only. */
const SETTINGS_STATEMENT = 'platform_tenant_settings';
const SETTINGS_SQL =
  "SELECT set_config('app.company_id', $1, true), set_config('platform.change_origin', $2, true), " +
  "set_config('app.purpose', $3, true)";

/** The settings statement's parameters: an empty string is PostgreSQL's unset custom setting. */
function settingsValues(settings: TenantSettings): string[] {
  return [
    settings.companyId === undefined ? '' : String(settings.companyId),
    settings.changeOrigin ?? '',
    settings.purpose ?? '',
  ];
}

/**
 * Sends the settings statement (parsed first on a connection that has not prepared it), bound to the
 * unit of work's settings: the start of every round trip of ScopedQuery.
 */
function sendSettings(
  connection: WireConnection,
  parses: RoundTripParses,
  settings: TenantSettings,
  prepared: boolean,
): void {
  const name = prepared ? SETTINGS_STATEMENT : '';
  if (parses.needs(name)) {
    parses.parse(name, SETTINGS_SQL);
  }
  connection.bind({ statement: name, values: settingsValues(settings) });
  connection.execute({ portal: '' });
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
  submittedNamedStatements?: Record<string, string>;
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
  parse(message: { text: string; name: string; types?: unknown[] }): void;
  bind(message: { statement: string; values: unknown[] }): void;
  execute(message: { portal: string; rows?: number }): void;
}

/**
 * The Parse messages of one round trip, each recorded as a prepared statement of the connection only
 * once PostgreSQL confirms it. pg records only a query's own name, and at the first ParseComplete of
 * its round trip, which may be another statement's; a statement whose Parse never completed must be
 * parsed again, and one whose Parse completed must never be (PostgreSQL keeps it even when its
 * execution then fails, and a second Parse of the name fails with 42P05).
 */
class RoundTripParses {
  private readonly sent: { name: string; text: string }[] = [];
  private readonly confirmed = () => {
    const parsed = this.sent.shift();
    if (parsed?.name) {
      this.connection.parsedStatements[parsed.name] = parsed.text;
    }
  };

  constructor(private readonly connection: WireConnection) {
    connection.on('parseComplete', this.confirmed);
  }

  /** Whether a Parse of `name` is needed: not prepared on the connection, nor sent in this round trip. */
  needs(name: string): boolean {
    return (
      !name ||
      (this.connection.parsedStatements[name] === undefined && !this.sent.some((p) => p.name === name))
    );
  }

  /** Sends a Parse (needed or not: see `needs`). */
  parse(name: string, text: string): void {
    this.connection.parse({ text, name });
    this.sent.push({ name, text });
  }

  /** Records a Parse that someone else (pg's Query) sends, in the order it is sent. */
  expect(name: string, text: string): void {
    this.sent.push({ name, text });
  }

  /** At the end of the round trip: what PostgreSQL did not confirm is not prepared. */
  finish(): void {
    this.connection.off('parseComplete', this.confirmed);
    for (const { name } of this.sent.splice(0)) {
      if (name) {
        delete this.connection.parsedStatements[name];
        delete this.connection.submittedNamedStatements?.[name];
      }
    }
  }
}

/** The parts of pg's Query the classes below build on (not in its type declarations). */
interface PgQuery {
  name?: string;
  text: string;
  callback?: (error: Error | null, result?: unknown) => void;
  _results: { rows: unknown[] } | { rows: unknown[] }[];
  _canceledDueToError: Error | false;
  hasBeenParsed(connection: WireConnection): boolean;
  prepare(connection: WireConnection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: unknown): void;
  handleError(error: Error, connection: unknown): void;
  handleReadyForQuery(connection: unknown): void;
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
  private parses: RoundTripParses | undefined;
  /** Whether the settings statement has completed, and what arrives now is the caller's. */
  private settingsAnswered = false;

  constructor(
    private readonly settings: TenantSettings,
    /** Whether the settings statement is prepared on the connection (see PooledClient). */
    private readonly prepareSettings: boolean,
    config: { text: string; values?: unknown[]; name?: string },
    callback?: (error: Error | null, result?: unknown) => void,
  ) {
    // Always the extended protocol: the settings statement must share the pipeline.
    super({ ...config, queryMode: 'extended', callback });
  }

  /** Called by Query.submit with the stream corked: the settings statement first, then the query. */
  override prepare(connection: WireConnection): void {
    const parses = new RoundTripParses(connection);
    this.parses = parses;
    sendSettings(connection, parses, this.settings, this.prepareSettings);
    if (this.name && !this.hasBeenParsed(connection)) {
      parses.expect(this.name, this.text);
    }
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
    this.parses?.finish();
    super.handleError(error, connection);
  }

  override handleReadyForQuery(connection: WireConnection): void {
    this.parses?.finish();
    super.handleReadyForQuery(connection);
  }
}
