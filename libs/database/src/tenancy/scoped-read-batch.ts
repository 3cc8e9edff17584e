import * as pg from 'pg';
import type { TenantSettings } from './tenant-context';
import { AfterSettingsQuery, RoundTripParses, sendSettings, type WireConnection } from './scoped-query';

/** One read of a batch: its text, values (`wireValues`), and the name it is prepared under, if any. */
export interface BatchedStatement {
  text: string;
  values: unknown[];
  name?: string;
}

/** What a batch answers: the rows of each statement that completed, and the failure if one failed. */
export interface BatchOutcome {
  rows: unknown[][];
  /** Set when a statement failed: statements before it completed, it and those after did not. */
  error?: Error;
}

interface BatchConnection extends WireConnection {
  stream: { cork?: () => void; uncork?: () => void };
  describe(message: { type: 'P'; name: string }): void;
  sync(): void;
}

const { prepareValue } = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils;

/**
 * A statement's values as pg's Query binds them (dates, arrays, buffers, JSON); throws what pg would
 * throw for a value it cannot send. A batch takes only values converted beforehand, so such a value
 * fails its own read, not the batch.
 */
export function wireValues(values: readonly unknown[]): unknown[] {
  return values.map((value) => prepareValue(value));
}

/**
 * Several reads of one unit of work's settings in one round trip: the settings statement once, then
 * each read's Parse (unless its name is already prepared on the connection), Bind, Describe and
 * Execute, then one Sync. PostgreSQL runs them one after another in one implicit transaction, so the
 * settings hold for all of them and end with it, as with ScopedQuery. pg's Query already collects
 * one result per statement (`_results`); the settings statement's row and completion are consumed
 * by AfterSettingsQuery, as for ScopedQuery.
 *
 * Reads only: a failing statement aborts the implicit transaction, and the statements after it are
 * skipped. The answer says how many completed, so the caller resolves those and runs the rest again
 * on their own (`batchedRead`).
 */
export class ScopedReadBatch extends AfterSettingsQuery {
  private completed = 0;
  private parses: RoundTripParses | undefined;
  /**
   * The statement one of whose rows a type parser failed on (pg reports that only at the end): the
   * statements before it are answered, it fails, and the rest run again alone.
   */
  private failedAt: number | undefined;

  constructor(
    private readonly settings: TenantSettings,
    private readonly statements: readonly BatchedStatement[],
    done: (outcome: BatchOutcome) => void,
  ) {
    super({ queryMode: 'extended' });
    this.callback = (error) => {
      this.parses?.finish();
      done(this.outcome(error ?? undefined));
    };
  }

  /** Called by pg's client when the connection is free: everything goes in one corked write. */
  submit(connection: BatchConnection): null {
    const parses = new RoundTripParses(connection);
    this.parses = parses;
    connection.stream.cork?.();
    try {
      sendSettings(connection, parses, this.settings);
      for (const statement of this.statements) {
        const name = statement.name ?? '';
        // Two reads of one batch may be the same statement (concurrent requests): parsed once.
        if (parses.needs(name)) {
          parses.parse(name, statement.text);
        }
        connection.bind({ statement: name, values: statement.values });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  override handleDataRow(message: unknown): void {
    super.handleDataRow(message);
    if (this._canceledDueToError && this.failedAt === undefined) {
      this.failedAt = this.completed;
    }
  }

  override handleCommandComplete(message: unknown, connection: unknown): void {
    if (this.settingsAnswered) {
      this.completed += 1;
    }
    super.handleCommandComplete(message, connection);
  }

  private outcome(error: Error | undefined): BatchOutcome {
    const results = Array.isArray(this._results) ? this._results : [this._results];
    const rows = results.slice(0, this.completed).map((result) => result.rows);
    return error ? { rows: rows.slice(0, this.failedAt), error } : { rows };
  }
}
