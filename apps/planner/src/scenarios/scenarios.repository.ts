import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type ScopedSql, type TenantUnitOfWork } from '@platform/database';
import { LedgerUnit } from '../ledger/ledger.repository';
import { Plan } from './plan';
import { scenarioApplied, scenarioNotFound } from './scenario.errors';
import type { ScenarioEntityKind } from './scenario-plan.entity';
import type { ScenarioStatus } from './scenario.entity';

/** A write into a scenario: a change (its version moves), or a read planning days again (it stays). */
export type ScenarioWrite = 'change' | 'replan';

/**
 * The start of every write transaction of a plan: in a scenario, its row locked (FOR UPDATE), so
 * the scenario's writers, and its apply, run one after the other; a scenario that is gone or applied
 * refuses the write. A change bumps the scenario's version (its ETag, and its `If-Match` on apply).
 */
export async function enterScenarioWrite(
  unit: TenantUnitOfWork,
  plan: Plan,
  kind: ScenarioWrite,
): Promise<void> {
  if (plan.isLive || plan.scenarioId === null) {
    return;
  }
  const [row] = await unit.sql.select<{ status: ScenarioStatus }>(
    'SELECT status FROM scenarios WHERE company_id = $1 AND id = $2 FOR UPDATE',
    [unit.companyId(), plan.scenarioId],
  );
  if (!row) {
    throw scenarioNotFound(plan.scenarioId);
  }
  if (row.status !== 'draft') {
    throw scenarioApplied(plan.scenarioId);
  }
  if (kind === 'change') {
    await unit.sql.execute('UPDATE scenarios SET updated_at = now() WHERE company_id = $1 AND id = $2', [
      unit.companyId(),
      plan.scenarioId,
    ]);
  }
}

/**
 * Before a scenario deletes its copy of a live row: remembers it in scenario_removals, with the
 * version it was copied at, so the apply deletes the live row (a row made in the scenario is no
 * live row: nothing to remember). Nothing in the live plan.
 */
export async function rememberRemoval(
  unit: TenantUnitOfWork,
  plan: Plan,
  entity: ScenarioEntityKind,
  id: string,
): Promise<void> {
  if (plan.isLive) {
    return;
  }
  const table = entity === 'allocation' ? plan.allocations : plan.placeholders;
  await unit.sql.execute(
    `INSERT INTO scenario_removals (scenario_id, entity, id, company_id, base_version)
     SELECT scenario_id, $3, id, company_id, base_version FROM ${table}
      WHERE company_id = $1 AND id = $2${plan.where()} AND base_version IS NOT NULL`,
    [unit.companyId(), id, entity],
  );
}

/** The scenario's version, which every change of it moves (0: no such scenario). */
export async function scenarioRevision(sql: ScopedSql, companyId: number, plan: Plan): Promise<number> {
  const [row] = await sql.select<{ version: number }>(
    'SELECT version FROM scenarios WHERE company_id = $1 AND id = $2',
    [companyId, plan.scenarioId],
  );
  return row?.version ?? 0;
}

/** A scenario as its routes answer it (times ISO, UTC). */
export interface ScenarioRow {
  id: string;
  name: string;
  base_scenario_id: string | null;
  author_user_id: number | null;
  status: ScenarioStatus;
  applied_at: string | null;
  applied_by_user_id: number | null;
  applied_changes: unknown;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One change a scenario makes to the live plan, with the live row's version now (null: gone). */
export interface ScenarioChangeRow {
  entity: ScenarioEntityKind;
  id: string;
  change: 'created' | 'updated' | 'deleted';
  base_version: number | null;
  live_version: number | null;
}

const SCENARIO_COLUMNS = `s.id, s.name, s.base_scenario_id, s.author_user_id, s.status,
  to_char(s.applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS applied_at,
  s.applied_by_user_id, s.applied_changes, s.version,
  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

const PLACEHOLDER_COPY =
  'company_id, name, position_id, category_id, project_id, label_ids, created_at, updated_at';
const ALLOCATION_COPY = `company_id, user_id, placeholder_id, project_id, from_date, to_date, allocated_hours,
  assigned_by_user_id, email, status, mode, hours_per_day, percent, note, billable, task_id,
  confirmed_by_user_id, confirmed_at, created_at, updated_at`;
const DAY_COPY = 'company_id, allocation_id, day, user_id, placeholder_id, status, hours, pinned';
/** What an allocation books; a scenario's copy whose columns are these of the live row changes nothing. */
const ALLOCATION_PLAN = `user_id, placeholder_id, project_id, from_date, to_date, allocated_hours, status, mode,
  hours_per_day, percent, note, billable, task_id, confirmed_by_user_id, confirmed_at`;
const PLACEHOLDER_PLAN = 'name, position_id, category_id, project_id, label_ids';

const prefixed = (alias: string, columns: string) =>
  columns
    .split(',')
    .map((column) => `${alias}.${column.trim()}`)
    .join(', ');

/**
 * The scenarios of the request's company (RequestTenantScope): the drafts with their copies of the
 * plan, and their apply, which writes the live tables in one transaction. The statements that read
 * and write inside a scenario are the ledger's and the placeholders' own (Plan).
 */
@Injectable()
export class ScenariosRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  companyId(): number {
    return this.scope.companyId();
  }

  async get(id: string): Promise<ScenarioRow | undefined> {
    const [row] = await this.scope.sql.select<ScenarioRow>(
      `SELECT ${SCENARIO_COLUMNS} FROM scenarios s WHERE s.company_id = $1 AND s.id = $2`,
      [this.scope.companyId(), id],
    );
    return row;
  }

  /** Scenarios, newest first, `limit + 1` at most (one more says there are more). */
  list(filter: {
    status?: ScenarioStatus;
    after?: { created_at: string; id: string };
    limit: number;
  }): Promise<ScenarioRow[]> {
    return this.scope.sql.select<ScenarioRow>(
      `SELECT ${SCENARIO_COLUMNS} FROM scenarios s
        WHERE s.company_id = $1 AND ($2::varchar IS NULL OR s.status = $2::varchar)
          -- In milliseconds, as the cursor carries created_at: a row later within the cursor's
          -- millisecond is neither skipped nor answered twice.
          AND ($3::timestamptz IS NULL
               OR (date_trunc('milliseconds', s.created_at), s.id) < ($3::timestamptz, $4::uuid))
        ORDER BY date_trunc('milliseconds', s.created_at) DESC, s.id DESC
        LIMIT $5`,
      [
        this.scope.companyId(),
        filter.status ?? null,
        filter.after?.created_at ?? null,
        filter.after?.id ?? null,
        filter.limit + 1,
      ],
    );
  }

  /**
   * A new draft holding a copy of the live plan, or of the draft `base`, made in one statement (one
   * snapshot: no write between its parts is half in the copy). Copies keep the live rows' ids and
   * the live versions they were copied at (`base_version`; a copy of a draft keeps its base's).
   */
  create(
    columns: { name: string; author_user_id: number | null },
    base: string | null,
  ): Promise<ScenarioRow> {
    return this.scope.transaction(async (unit) => {
      if (base !== null) {
        const [source] = await unit.sql.select<{ status: ScenarioStatus }>(
          'SELECT status FROM scenarios WHERE company_id = $1 AND id = $2 FOR SHARE',
          [unit.companyId(), base],
        );
        if (!source) {
          throw scenarioNotFound(base, 400);
        }
        if (source.status !== 'draft') {
          throw scenarioApplied(base);
        }
      }
      const [created] = await unit.sql.execute<{ id: string }>(
        `INSERT INTO scenarios (company_id, name, base_scenario_id, author_user_id) VALUES ($1, $2, $3, $4)
         RETURNING id`,
        [unit.companyId(), columns.name, base, columns.author_user_id],
      );
      if (!created) {
        throw new Error('inserting a scenario answered no row');
      }
      const from = base === null ? Plan.LIVE : Plan.scenario(base);
      const baseVersion = from.isLive ? 'version' : 'base_version';
      await unit.sql.execute(
        `WITH placeholders_copied AS (
           INSERT INTO scenario_placeholders (scenario_id, id, version, base_version, ${PLACEHOLDER_COPY})
           SELECT $2::uuid, id, version, ${baseVersion}, ${PLACEHOLDER_COPY} FROM ${from.placeholders}
            WHERE company_id = $1${from.where()}
           RETURNING 1),
         allocations_copied AS (
           INSERT INTO scenario_allocations (scenario_id, id, version, base_version, ${ALLOCATION_COPY})
           SELECT $2::uuid, id, version, ${baseVersion}, ${ALLOCATION_COPY} FROM ${from.allocations}
            WHERE company_id = $1${from.where()}
           RETURNING 1),
         days_copied AS (
           INSERT INTO scenario_allocation_days (scenario_id, ${DAY_COPY})
           SELECT $2::uuid, ${DAY_COPY} FROM ${from.days} WHERE company_id = $1${from.where()}
           RETURNING 1),
         removals_copied AS (
           INSERT INTO scenario_removals (scenario_id, entity, id, company_id, base_version)
           SELECT $2::uuid, entity, id, company_id, base_version FROM scenario_removals
            WHERE company_id = $1 AND scenario_id = $3::uuid
           RETURNING 1)
         SELECT (SELECT count(*) FROM placeholders_copied) AS placeholders,
                (SELECT count(*) FROM allocations_copied) AS allocations,
                (SELECT count(*) FROM days_copied) AS days,
                (SELECT count(*) FROM removals_copied) AS removals`,
        [unit.companyId(), created.id, base],
      );
      const [row] = await unit.sql.select<ScenarioRow>(
        `SELECT ${SCENARIO_COLUMNS} FROM scenarios s WHERE s.company_id = $1 AND s.id = $2`,
        [unit.companyId(), created.id],
      );
      if (!row) {
        throw new Error('the scenario just made is not there');
      }
      return row;
    });
  }

  /** What the scenario changes in the live plan now (see `changesSql`). */
  changes(id: string): Promise<ScenarioChangeRow[]> {
    return this.scope.sql.select<ScenarioChangeRow>(CHANGES_SQL, [this.scope.companyId(), id]);
  }

  /** One transaction of scenario work, with the live ledger's statements on the same connection. */
  transaction<T>(work: (unit: ScenariosUnit, live: LedgerUnit) => Promise<T>): Promise<T> {
    return this.scope.transaction((unit) => work(new ScenariosUnit(unit), new LedgerUnit(unit, Plan.LIVE)));
  }
}

/**
 * The changes a scenario ($2) makes to the live plan, allocations and placeholders alike:
 * - `created`: a row made in the scenario (no base version);
 * - `updated`: a copy written in the scenario (its version moved from its base's) whose plan differs
 *   from the live row's, or whose live row changed or went since the copy;
 * - `deleted`: a copy deleted in the scenario (scenario_removals).
 * Each with the live row's version now, so a conflict (the live row moved since the copy) shows.
 */
const CHANGES_SQL = `
  SELECT 'placeholder' AS entity, s.id, CASE WHEN s.base_version IS NULL THEN 'created' ELSE 'updated' END AS change,
         s.base_version, l.version AS live_version
    FROM scenario_placeholders s LEFT JOIN placeholders l ON l.company_id = s.company_id AND l.id = s.id
   WHERE s.company_id = $1 AND s.scenario_id = $2
     AND (s.base_version IS NULL
          OR (s.version <> s.base_version
              AND (l.id IS NULL OR l.version <> s.base_version
                   OR (${prefixed('s', PLACEHOLDER_PLAN)}) IS DISTINCT FROM (${prefixed('l', PLACEHOLDER_PLAN)}))))
  UNION ALL
  SELECT 'allocation', s.id, CASE WHEN s.base_version IS NULL THEN 'created' ELSE 'updated' END,
         s.base_version, l.version
    FROM scenario_allocations s LEFT JOIN allocations l ON l.company_id = s.company_id AND l.id = s.id
   WHERE s.company_id = $1 AND s.scenario_id = $2
     AND (s.base_version IS NULL
          OR (s.version <> s.base_version
              AND (l.id IS NULL OR l.version <> s.base_version
                   OR (${prefixed('s', ALLOCATION_PLAN)}) IS DISTINCT FROM (${prefixed('l', ALLOCATION_PLAN)}))))
  UNION ALL
  SELECT r.entity, r.id, 'deleted', r.base_version, coalesce(la.version, lp.version)
    FROM scenario_removals r
    LEFT JOIN allocations la ON r.entity = 'allocation' AND la.company_id = r.company_id AND la.id = r.id
    LEFT JOIN placeholders lp ON r.entity = 'placeholder' AND lp.company_id = r.company_id AND lp.id = r.id
   WHERE r.company_id = $1 AND r.scenario_id = $2
  ORDER BY 1, 3, 2`;

/** The statements of one scenario transaction: its lock, and the writes of its apply to the live plan. */
export class ScenariosUnit {
  constructor(private readonly unit: TenantUnitOfWork) {}

  /** The scenario, its row locked (FOR UPDATE): its writers and its apply wait for one another. */
  async lock(id: string): Promise<ScenarioRow | undefined> {
    const [row] = await this.unit.sql.select<ScenarioRow>(
      `SELECT ${SCENARIO_COLUMNS} FROM scenarios s WHERE s.company_id = $1 AND s.id = $2 FOR UPDATE`,
      [this.unit.companyId(), id],
    );
    return row;
  }

  changes(id: string): Promise<ScenarioChangeRow[]> {
    return this.unit.sql.select<ScenarioChangeRow>(CHANGES_SQL, [this.unit.companyId(), id]);
  }

  /** Discards the scenario and its copy (the foreign keys cascade). */
  async delete(id: string): Promise<void> {
    await this.unit.sql.execute('DELETE FROM scenarios WHERE company_id = $1 AND id = $2', [
      this.unit.companyId(),
      id,
    ]);
  }

  /**
   * The live rows of these allocations and placeholders, locked (FOR UPDATE) with their versions:
   * what the apply compares with the versions the scenario copied.
   */
  async lockLive(ids: { allocations: string[]; placeholders: string[] }): Promise<Map<string, number>> {
    const rows = await this.unit.sql.select<{ id: string; version: number }>(
      `SELECT id, version FROM allocations WHERE company_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE`,
      [this.unit.companyId(), ids.allocations],
    );
    const placeholders = await this.unit.sql.select<{ id: string; version: number }>(
      `SELECT id, version FROM placeholders WHERE company_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE`,
      [this.unit.companyId(), ids.placeholders],
    );
    return new Map([...rows, ...placeholders].map((row) => [row.id, row.version]));
  }

  /** Checks the live plan's overlaps at the end of the transaction (the apply checks them itself first). */
  async deferOverlaps(): Promise<void> {
    await this.unit.sql.execute(
      'SET CONSTRAINTS allocations_no_overlap, allocations_placeholder_no_overlap DEFERRED',
      [],
    );
  }

  /** Writes the scenario's placeholders `created` and `updated` into the live plan. */
  async writePlaceholders(scenarioId: string, created: string[], updated: string[]): Promise<void> {
    await this.unit.sql.execute(
      `INSERT INTO placeholders (id, ${PLACEHOLDER_PLAN}, company_id)
       SELECT id, ${PLACEHOLDER_PLAN}, company_id FROM scenario_placeholders
        WHERE company_id = $1 AND scenario_id = $2 AND id = ANY($3::uuid[])`,
      [this.unit.companyId(), scenarioId, created],
    );
    await this.unit.sql.execute(
      `UPDATE placeholders l SET (${PLACEHOLDER_PLAN}, updated_at) = (${prefixed('s', PLACEHOLDER_PLAN)}, now())
         FROM scenario_placeholders s
        WHERE l.company_id = $1 AND s.company_id = $1 AND s.scenario_id = $2 AND s.id = l.id
          AND l.id = ANY($3::uuid[])`,
      [this.unit.companyId(), scenarioId, updated],
    );
  }

  /** Writes the scenario's allocations `created` and `updated`, with their days, into the live plan. */
  async writeAllocations(scenarioId: string, created: string[], updated: string[]): Promise<void> {
    await this.unit.sql.execute(
      `INSERT INTO allocations (id, ${ALLOCATION_PLAN}, company_id, assigned_by_user_id, email)
       SELECT id, ${ALLOCATION_PLAN}, company_id, assigned_by_user_id, email FROM scenario_allocations
        WHERE company_id = $1 AND scenario_id = $2 AND id = ANY($3::uuid[])`,
      [this.unit.companyId(), scenarioId, created],
    );
    await this.unit.sql.execute(
      `UPDATE allocations l SET (${ALLOCATION_PLAN}, assigned_by_user_id, updated_at)
                              = (${prefixed('s', ALLOCATION_PLAN)}, s.assigned_by_user_id, now())
         FROM scenario_allocations s
        WHERE l.company_id = $1 AND s.company_id = $1 AND s.scenario_id = $2 AND s.id = l.id
          AND l.id = ANY($3::uuid[])`,
      [this.unit.companyId(), scenarioId, updated],
    );
    const written = [...created, ...updated];
    await this.unit.sql.execute(
      'DELETE FROM allocation_days WHERE company_id = $1 AND allocation_id = ANY($2::uuid[])',
      [this.unit.companyId(), written],
    );
    await this.unit.sql.execute(
      `INSERT INTO allocation_days (${DAY_COPY})
       SELECT ${DAY_COPY} FROM scenario_allocation_days
        WHERE company_id = $1 AND scenario_id = $2 AND allocation_id = ANY($3::uuid[])`,
      [this.unit.companyId(), scenarioId, written],
    );
  }

  /** Those of these placeholders that a live allocation books. */
  async bookedPlaceholders(ids: string[]): Promise<string[]> {
    const rows = await this.unit.sql.select<{ placeholder_id: string }>(
      `SELECT DISTINCT placeholder_id FROM allocations
        WHERE company_id = $1 AND placeholder_id = ANY($2::uuid[]) ORDER BY placeholder_id`,
      [this.unit.companyId(), ids],
    );
    return rows.map((row) => row.placeholder_id);
  }

  async deleteLive(entity: ScenarioEntityKind, ids: string[]): Promise<void> {
    await this.unit.sql.execute(
      `DELETE FROM ${entity === 'allocation' ? 'allocations' : 'placeholders'}
        WHERE company_id = $1 AND id = ANY($2::uuid[])`,
      [this.unit.companyId(), ids],
    );
  }

  /**
   * The pairs of live allocations, one of them among `ids`, that book the same person (or
   * placeholder) on the same project on a shared day: what the deferred exclusion constraints would
   * refuse at commit, found first so that each is a conflict of its own.
   */
  overlaps(ids: string[]): Promise<{ id: string; other_id: string; from: string; to: string }[]> {
    return this.unit.sql.select(
      `SELECT a.id, b.id AS other_id, greatest(a.from_date, b.from_date)::text AS "from",
              least(a.to_date, b.to_date)::text AS "to"
         FROM allocations a JOIN allocations b
           ON b.company_id = a.company_id AND b.project_id = a.project_id AND b.id <> a.id
          AND (b.user_id = a.user_id OR b.placeholder_id = a.placeholder_id)
          AND daterange(b.from_date, b.to_date, '[]') && daterange(a.from_date, a.to_date, '[]')
        WHERE a.company_id = $1 AND a.id = ANY($2::uuid[])
        ORDER BY a.id, b.id`,
      [this.unit.companyId(), ids],
    );
  }

  /**
   * Marks the scenario applied with what it changed, and drops its copy: an applied scenario is
   * history, its plan the live one's now. The update's `scenarios` event is the apply's own.
   */
  async markApplied(id: string, appliedBy: number | null, changes: unknown): Promise<void> {
    for (const table of ['scenario_allocations', 'scenario_placeholders', 'scenario_removals']) {
      await this.unit.sql.execute(`DELETE FROM ${table} WHERE company_id = $1 AND scenario_id = $2`, [
        this.unit.companyId(),
        id,
      ]);
    }
    await this.unit.sql.execute(
      `UPDATE scenarios SET status = 'applied', applied_at = now(), applied_by_user_id = $3,
              applied_changes = $4::jsonb, updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [this.unit.companyId(), id, appliedBy, JSON.stringify(changes)],
    );
  }
}
