const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The plan a statement reads and writes: the live plan, or a scenario's copy of it (issue 39), which
 * has the same columns in tables of its own (`scenario_allocations`, `scenario_allocation_days`,
 * `scenario_placeholders`) plus the scenario's id. The repositories write each statement once, with
 * the plan's table names and its scope (`where`), so a scenario is read and written by exactly the
 * statements of the live plan. The id is inlined as a literal (checked to be a canonical uuid here),
 * because a statement's parameters are numbered by its own text and the scope is appended to many.
 */
export class Plan {
  static readonly LIVE = new Plan(null);

  private constructor(readonly scenarioId: string | null) {}

  /** A scenario's plan; the id as PostgreSQL prints a uuid (lower case), the scenario checked to exist. */
  static scenario(id: string): Plan {
    if (!UUID.test(id)) {
      throw new Error(`a scenario's plan needs a canonical uuid, not ${JSON.stringify(id)}`);
    }
    return new Plan(id);
  }

  get isLive(): boolean {
    return this.scenarioId === null;
  }

  get allocations(): string {
    return this.isLive ? 'allocations' : 'scenario_allocations';
  }

  get days(): string {
    return this.isLive ? 'allocation_days' : 'scenario_allocation_days';
  }

  get placeholders(): string {
    return this.isLive ? 'placeholders' : 'scenario_placeholders';
  }

  /** ` AND <alias>.scenario_id = '<id>'::uuid` in a scenario; nothing in the live plan. */
  where(alias?: string): string {
    return this.isLive ? '' : ` AND ${alias ? `${alias}.` : ''}scenario_id = ${this.literal()}`;
  }

  /** An INSERT's leading column in a scenario (`scenario_id, `); nothing in the live plan. */
  insertColumn(): string {
    return this.isLive ? '' : 'scenario_id, ';
  }

  /** The value of `insertColumn()` (`'<id>'::uuid, `). */
  insertValue(): string {
    return this.isLive ? '' : `${this.literal()}, `;
  }

  private literal(): string {
    return `'${this.scenarioId}'::uuid`;
  }
}
