/**
 * What one table keeps: the rows matching `expired` are past their retention and are removed, a
 * small batch per statement. One policy per table.
 */
export interface RetentionPolicy {
  /** The table, as SQL names it (`snake_case`, optionally `schema.table`); unqualified names resolve to the service's schema. */
  table: string;
  /**
   * SQL condition over the table's columns, true for the rows to remove (`$1`, `$2`… are
   * `parameters`). An index should serve it: it is evaluated on every run, over a growing table.
   */
  expired: string;
  parameters?: readonly unknown[];
  /** What is kept, in words, for the log line (`older than 30 days`). */
  keptFor: string;
  /**
   * Bookkeeping that must commit together with each batch (the change feed remembers how far it was
   * pruned): `statement` is a data-modifying SQL statement that reads the removed rows' `returning`
   * columns from the CTE `removed`.
   */
  alsoRecord?: { returning: string; statement: string };
}

export interface RetentionSettings {
  /** Pause between two runs of every policy, per replica. */
  intervalSeconds: number;
  /** Rows one statement removes at most (default 1000): short statements, short row locks. */
  batchSize?: number;
  policies: readonly RetentionPolicy[];
}

export const RETENTION_SETTINGS = Symbol('RETENTION_SETTINGS');
