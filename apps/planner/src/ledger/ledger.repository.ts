import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantUnitOfWork } from '@platform/database';
import type { AllocationMode, AllocationStatus } from '../allocations/allocation.entity';
import type { OverAllocatedEventData } from '../change-feed/change-event.entity';
import { PLANNER_CHANGE_FEED_LOCK } from '../database/migrations/1796000000600-AddChangeFeed';
import { LOCK_PLACEHOLDERS_SQL } from '../placeholders/placeholder-lock';
import type { Plan } from '../scenarios/plan';
import { RequestPlan } from '../scenarios/request-plan';
import {
  enterScenarioWrite,
  rememberRemoval,
  scenarioRevision,
  type ScenarioWrite,
} from '../scenarios/scenarios.repository';
import type { PlannedDay } from './day-plan';
import type { CapacityPolicy } from './planner-settings.entity';

/** The columns a v2 write sets: exactly one of `user_id` and `placeholder_id` (issue 39). */
export interface AllocationColumns {
  user_id: number | null;
  placeholder_id: string | null;
  project_id: number;
  from: string;
  to: string;
  status: AllocationStatus;
  mode: AllocationMode;
  hours_per_day: number | null;
  percent_of_capacity: number | null;
  total_hours: number;
  note: string | null;
  billable: boolean;
  task_id: number | null;
  assigned_by_user_id: number;
  confirmed_by_user_id: number | null;
  confirmed_at: Date | null;
}

/** An allocation row as the ledger reads it (hours as numbers, dates as YYYY-MM-DD, times ISO). */
export interface LedgerAllocation extends Omit<AllocationColumns, 'confirmed_at'> {
  id: string;
  confirmed_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** What a person is booked for on one day, by status. */
export interface BookedDay {
  confirmed: number;
  tentative: number;
}

export interface PlannerSettingsRow {
  capacity_policy: CapacityPolicy;
  count_tentative: boolean;
  /** 1 for a company that never changed its settings (the defaults). */
  version: number;
}

export interface AllocationFilter {
  userIds?: number[];
  placeholderIds?: string[];
  projectIds?: number[];
  status?: AllocationStatus;
  from?: string;
  to?: string;
  after?: { from: string; id: string };
  limit: number;
}

const COLUMNS = `a.id, a.user_id, a.placeholder_id, a.project_id, a.from_date::text AS "from", a.to_date::text AS "to",
  a.status, a.mode, a.hours_per_day::float8 AS hours_per_day, a.percent::float8 AS percent_of_capacity,
  a.allocated_hours::float8 AS total_hours, a.note, a.billable, a.task_id, a.assigned_by_user_id,
  a.confirmed_by_user_id, to_char(a.confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS confirmed_at,
  a.version, to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(a.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

/**
 * The allocations whose days are planned again, against the calendar in force, whenever a v2 read or
 * write meets them: those with no days yet (from before the ledger, or changed by the interface's
 * routes), and those booked relative to each day's capacity (hours per day, percent of capacity),
 * whose days follow later changes of the schedule and time off.
 */
function replanned(plan: Plan): string {
  return `(a.mode IN ('hours_per_day', 'percent_of_capacity')
          OR NOT EXISTS (SELECT 1 FROM ${plan.days} d WHERE d.allocation_id = a.id${plan.where('d')}))`;
}

/**
 * The v2 ledger's statements: allocations and their days, in the request's company
 * (RequestTenantScope) and plan (RequestPlan: the live one, or a scenario's). Writes run in one
 * transaction (`transaction`), under the lock of each person they book; in a scenario, under the
 * scenario's row lock instead (enterScenarioWrite).
 */
@Injectable()
export class LedgerRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    private readonly plans: RequestPlan,
  ) {}

  companyId(): number {
    return this.scope.companyId();
  }

  /** `replan`: a read planning days again, which is no change of a scenario (its version stays). */
  transaction<T>(work: (ledger: LedgerUnit) => Promise<T>, kind: ScenarioWrite = 'change'): Promise<T> {
    const plan = this.plans.get();
    return this.scope.transaction(async (unit) => {
      await enterScenarioWrite(unit, plan, kind);
      return work(new LedgerUnit(unit, plan));
    });
  }

  async settings(): Promise<PlannerSettingsRow> {
    const [row] = await this.scope.sql.select<PlannerSettingsRow>(
      'SELECT capacity_policy, count_tentative, version FROM planner_settings WHERE company_id = $1',
      [this.scope.companyId()],
    );
    return row ?? { capacity_policy: 'warn', count_tentative: false, version: 1 };
  }

  async get(id: string): Promise<LedgerAllocation | undefined> {
    const [row] = await this.byIds([id]);
    return row;
  }

  byIds(ids: readonly string[]): Promise<LedgerAllocation[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${plan.allocations} a WHERE a.company_id = $1 AND a.id = ANY($2::uuid[])${plan.where('a')}`,
      [this.scope.companyId(), ids],
    );
  }

  /** Allocations overlapping the window, by first day then id, `limit + 1` of them at most. */
  list(filter: AllocationFilter): Promise<LedgerAllocation[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${plan.allocations} a
        WHERE a.company_id = $1${plan.where('a')}
          AND ($2::integer[] IS NULL OR a.user_id = ANY($2::integer[]))
          AND ($3::integer[] IS NULL OR a.project_id = ANY($3::integer[]))
          AND ($4::varchar IS NULL OR a.status = $4::varchar)
          AND ($5::date IS NULL OR a.to_date >= $5::date)
          AND ($6::date IS NULL OR a.from_date <= $6::date)
          AND ($7::date IS NULL OR (a.from_date, a.id) > ($7::date, $8::uuid))
          AND ($10::uuid[] IS NULL OR a.placeholder_id = ANY($10::uuid[]))
        ORDER BY a.from_date, a.id
        LIMIT $9`,
      [
        this.scope.companyId(),
        filter.userIds ?? null,
        filter.projectIds ?? null,
        filter.status ?? null,
        filter.from ?? null,
        filter.to ?? null,
        filter.after?.from ?? null,
        filter.after?.id ?? null,
        filter.limit + 1,
        filter.placeholderIds ?? null,
      ],
    );
  }

  /** The planned days of these allocations, by allocation, in date order (none: not planned yet). */
  daysOf(allocationIds: readonly string[]): Promise<Map<string, PlannedDay[]>> {
    return daysOf(
      this.scope.sql.select.bind(this.scope.sql),
      this.plans.get(),
      this.scope.companyId(),
      allocationIds,
    );
  }

  /** These people's allocations overlapping the range whose days a read plans again (`replanned`). */
  replannedOverlapping(userIds: readonly number[], from: string, to: string): Promise<LedgerAllocation[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${plan.allocations} a
        WHERE a.company_id = $1${plan.where('a')} AND a.user_id = ANY($2::integer[])
          AND a.to_date >= $3::date AND a.from_date <= $4::date AND ${replanned(plan)}
        ORDER BY a.from_date, a.id`,
      [this.scope.companyId(), userIds, from, to],
    );
  }

  /** These projects' allocations overlapping the range whose days a read plans again (`replanned`). */
  replannedOnProjects(projectIds: readonly number[], from: string, to: string): Promise<LedgerAllocation[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${plan.allocations} a
        WHERE a.company_id = $1${plan.where('a')} AND a.project_id = ANY($2::integer[])
          AND a.to_date >= $3::date AND a.from_date <= $4::date AND ${replanned(plan)}
        ORDER BY a.from_date, a.id`,
      [this.scope.companyId(), projectIds, from, to],
    );
  }

  /**
   * What each of these people is booked for on each day of the range, by status: one row per
   * person and day with any booking, the day as a day number (days since 1970-01-01).
   */
  bookedDays(
    userIds: readonly number[],
    from: string,
    to: string,
  ): Promise<{ user_id: number; day: number; confirmed: number; tentative: number }[]> {
    const plan = this.plans.get();
    return this.scope.sql.select(
      `SELECT user_id, day - DATE '1970-01-01' AS day,
              coalesce(sum(hours) FILTER (WHERE status = 'confirmed'), 0)::float8 AS confirmed,
              coalesce(sum(hours) FILTER (WHERE status = 'tentative'), 0)::float8 AS tentative
         FROM ${plan.days}
        WHERE company_id = $1${plan.where()} AND user_id = ANY($2::integer[]) AND day BETWEEN $3::date AND $4::date
        GROUP BY user_id, day`,
      [this.scope.companyId(), userIds, from, to],
    );
  }

  /** Each allocation day of these people in the range (for `explain`), with its allocation's project. */
  bookingsOfDays(
    userIds: readonly number[],
    from: string,
    to: string,
  ): Promise<
    {
      user_id: number;
      date: string;
      allocation_id: string;
      project_id: number;
      status: string;
      hours: number;
    }[]
  > {
    const plan = this.plans.get();
    return this.scope.sql.select(
      `SELECT d.user_id, d.day::text AS date, d.allocation_id, a.project_id, d.status, d.hours::float8 AS hours
         FROM ${plan.days} d JOIN ${plan.allocations} a ON a.id = d.allocation_id${plan.where('a')}
        WHERE d.company_id = $1${plan.where('d')} AND d.user_id = ANY($2::integer[]) AND d.day BETWEEN $3::date AND $4::date
          AND d.hours > 0
        ORDER BY d.user_id, d.day, a.project_id, d.allocation_id`,
      [this.scope.companyId(), userIds, from, to],
    );
  }

  /** Whether the company has this placeholder (an allocation may name it). */
  async placeholderExists(id: string): Promise<boolean> {
    const plan = this.plans.get();
    const rows = await this.scope.sql.select(
      `SELECT 1 FROM ${plan.placeholders} WHERE company_id = $1 AND id = $2${plan.where()}`,
      [this.scope.companyId(), id],
    );
    return rows.length > 0;
  }

  /**
   * The planner's revision of the company's plan: its change-feed cursor ('0' before any change); in a
   * scenario, with the scenario's version after it (a scenario's writes are no events).
   */
  async revision(): Promise<string> {
    const [row] = await this.scope.sql.select<{ revision: string }>(
      'SELECT coalesce(max(cursor), 0)::text AS revision FROM change_events WHERE company_id = $1',
      [this.scope.companyId()],
    );
    const live = row?.revision ?? '0';
    const plan = this.plans.get();
    return plan.isLive
      ? live
      : `${live}.${await scenarioRevision(this.scope.sql, this.scope.companyId(), plan)}`;
  }

  /**
   * The first and last day of the person's allocations overlapping the range that a write plans
   * again (`replanned`): the calendar it asks main-api for must cover them whole.
   */
  async replannedSpan(
    userId: number,
    from: string,
    to: string,
  ): Promise<{ from: string; to: string } | undefined> {
    const plan = this.plans.get();
    const [row] = await this.scope.sql.select<{ from: string | null; to: string | null }>(
      `SELECT min(a.from_date)::text AS "from", max(a.to_date)::text AS "to" FROM ${plan.allocations} a
        WHERE a.company_id = $1${plan.where('a')} AND a.user_id = $2 AND a.to_date >= $3::date
          AND a.from_date <= $4::date AND ${replanned(plan)}`,
      [this.scope.companyId(), userId, from, to],
    );
    return row?.from && row.to ? { from: row.from, to: row.to } : undefined;
  }

  /** The placeholder's allocations overlapping the window (all of them without one), by first day. */
  placeholderAllocations(
    placeholderId: string,
    window?: { from: string; to: string },
  ): Promise<LedgerAllocation[]> {
    return this.scope.sql.select<LedgerAllocation>(placeholderAllocationsSql(this.plans.get()), [
      this.scope.companyId(),
      placeholderId,
      window?.from ?? null,
      window?.to ?? null,
    ]);
  }
}

/** A placeholder's allocations ($2) overlapping the window ($3, $4; both null: all), by first day. */
const placeholderAllocationsSql = (plan: Plan) => `SELECT ${COLUMNS} FROM ${plan.allocations} a
  WHERE a.company_id = $1${plan.where('a')} AND a.placeholder_id = $2::uuid
    AND ($3::date IS NULL OR a.to_date >= $3::date) AND ($4::date IS NULL OR a.from_date <= $4::date)
  ORDER BY a.from_date, a.id`;

type Select = <Row>(sql: string, parameters: unknown[]) => Promise<Row[]>;

async function daysOf(
  select: Select,
  plan: Plan,
  companyId: number,
  allocationIds: readonly string[],
): Promise<Map<string, PlannedDay[]>> {
  const days = new Map<string, PlannedDay[]>();
  if (allocationIds.length === 0) {
    return days;
  }
  const rows = await select<{ allocation_id: string; date: string; hours: number; pinned: boolean }>(
    `SELECT allocation_id, day::text AS date, hours::float8 AS hours, pinned FROM ${plan.days}
      WHERE company_id = $1${plan.where()} AND allocation_id = ANY($2::uuid[]) ORDER BY allocation_id, day`,
    [companyId, allocationIds],
  );
  for (const row of rows) {
    const list = days.get(row.allocation_id);
    const day = { date: row.date, hours: row.hours, pinned: row.pinned };
    if (list) {
      list.push(day);
    } else {
      days.set(row.allocation_id, [day]);
    }
  }
  return days;
}

/** The ledger's statements inside one write transaction, in its plan. */
export class LedgerUnit {
  constructor(
    private readonly unit: TenantUnitOfWork,
    private readonly plan: Plan,
  ) {}

  /**
   * Serializes the writers of each person's bookings (their capacity check and their write), in id
   * order so that two writers of the same two people cannot deadlock. A transaction-scoped advisory
   * lock on one bigint, (company << 32) | user: released at commit or rollback.
   */
  async lockPeople(userIds: readonly number[]): Promise<void> {
    // A scenario's writers are one after the other already, under the scenario's row lock.
    if (userIds.length === 0 || !this.plan.isLive) {
      return;
    }
    await this.unit.sql.select(
      `SELECT pg_advisory_xact_lock(($1::bigint << 32) | person) FROM unnest($2::integer[]) AS person ORDER BY person`,
      [this.unit.companyId(), [...new Set(userIds)].sort((a, b) => a - b)],
    );
  }

  /**
   * Serializes the writers of each placeholder's bookings (LOCK_PLACEHOLDERS_SQL): a placeholder has
   * no capacity to check, but its writers, and its deletion, still run one after the other.
   */
  async lockPlaceholders(placeholderIds: readonly string[]): Promise<void> {
    if (placeholderIds.length === 0 || !this.plan.isLive) {
      return;
    }
    await this.unit.sql.select(LOCK_PLACEHOLDERS_SQL, [this.unit.companyId(), [...new Set(placeholderIds)]]);
  }

  /** The company's settings row, made with the defaults if it has none, locked for the write. */
  async lockSettings(): Promise<PlannerSettingsRow> {
    await this.unit.sql.execute(
      'INSERT INTO planner_settings (company_id) VALUES ($1) ON CONFLICT (company_id) DO NOTHING',
      [this.unit.companyId()],
    );
    const [row] = await this.unit.sql.select<PlannerSettingsRow>(
      'SELECT capacity_policy, count_tentative, version FROM planner_settings WHERE company_id = $1 FOR UPDATE',
      [this.unit.companyId()],
    );
    if (!row) {
      throw new Error('the planner settings row vanished under its lock');
    }
    return row;
  }

  async updateSettings(settings: Omit<PlannerSettingsRow, 'version'>): Promise<PlannerSettingsRow> {
    const [row] = await this.unit.sql.execute<PlannerSettingsRow>(
      // In a WITH, so that the driver answers the rows written (it answers a bare UPDATE differently).
      `WITH updated AS (
         UPDATE planner_settings SET capacity_policy = $2, count_tentative = $3, updated_at = now()
          WHERE company_id = $1 RETURNING capacity_policy, count_tentative, version)
       SELECT capacity_policy, count_tentative, version FROM updated`,
      [this.unit.companyId(), settings.capacity_policy, settings.count_tentative],
    );
    if (!row) {
      throw new Error('updating the planner settings answered no row');
    }
    return row;
  }

  /** The allocation, its row locked for the write (FOR UPDATE). */
  async lock(id: string): Promise<LedgerAllocation | undefined> {
    const [row] = await this.unit.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${this.plan.allocations} a
        WHERE a.company_id = $1 AND a.id = $2${this.plan.where('a')} FOR UPDATE`,
      [this.unit.companyId(), id],
    );
    return row;
  }

  /** The placeholder's version, its row shared-locked (a fill's `If-Match`); undefined: no such one. */
  async placeholderVersion(id: string): Promise<number | undefined> {
    const [row] = await this.unit.sql.select<{ version: number }>(
      `SELECT version FROM ${this.plan.placeholders} WHERE company_id = $1 AND id = $2${this.plan.where()} FOR SHARE`,
      [this.unit.companyId(), id],
    );
    return row?.version;
  }

  /** The placeholder's allocations overlapping the window (all without one), read under its lock. */
  placeholderAllocations(
    placeholderId: string,
    window?: { from: string; to: string },
  ): Promise<LedgerAllocation[]> {
    return this.unit.sql.select<LedgerAllocation>(placeholderAllocationsSql(this.plan), [
      this.unit.companyId(),
      placeholderId,
      window?.from ?? null,
      window?.to ?? null,
    ]);
  }

  /** The person's allocations overlapping the days that are planned again (`replanned`), but `except`. */
  replanned(userId: number, from: string, to: string, except?: string): Promise<LedgerAllocation[]> {
    return this.unit.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${this.plan.allocations} a
        WHERE a.company_id = $1${this.plan.where('a')} AND a.user_id = $2 AND a.to_date >= $3::date
          AND a.from_date <= $4::date AND ($5::uuid IS NULL OR a.id <> $5::uuid) AND ${replanned(this.plan)}`,
      [this.unit.companyId(), userId, from, to, except ?? null],
    );
  }

  /** Those of these allocations that are planned again (`replanned`). */
  replannedAmong(ids: readonly string[]): Promise<LedgerAllocation[]> {
    return this.unit.sql.select<LedgerAllocation>(
      `SELECT ${COLUMNS} FROM ${this.plan.allocations} a
        WHERE a.company_id = $1${this.plan.where('a')} AND a.id = ANY($2::uuid[]) AND ${replanned(this.plan)}`,
      [this.unit.companyId(), ids],
    );
  }

  /**
   * A new total for an allocation planned again: its row changes (a new version, an `updated`
   * event), and the forget_allocation_days trigger drops its days, which the caller writes next.
   */
  async setTotal(id: string, totalHours: number): Promise<void> {
    await this.unit.sql.execute(
      `UPDATE ${this.plan.allocations} SET allocated_hours = $3, updated_at = now()
        WHERE company_id = $1 AND id = $2${this.plan.where()}`,
      [this.unit.companyId(), id, totalHours.toFixed(2)],
    );
  }

  /**
   * The first allocation of the person (or placeholder: the one of the two that is not null) on the
   * project sharing a day with the range, but `except`.
   */
  async firstOverlapping(
    assignee: { user_id: number | null; placeholder_id: string | null },
    projectId: number,
    range: { from: string; to: string },
    except?: string,
  ): Promise<{ from: string; to: string } | undefined> {
    const [row] = await this.unit.sql.select<{ from: string; to: string }>(
      `SELECT from_date::text AS "from", to_date::text AS "to" FROM ${this.plan.allocations}
        WHERE company_id = $1${this.plan.where()} AND (user_id = $2 OR placeholder_id = $7::uuid) AND project_id = $3
          AND daterange(from_date, to_date, '[]') && daterange($4::date, $5::date, '[]')
          AND ($6::uuid IS NULL OR id <> $6::uuid)
        ORDER BY from_date LIMIT 1`,
      [
        this.unit.companyId(),
        assignee.user_id,
        projectId,
        range.from,
        range.to,
        except ?? null,
        assignee.placeholder_id,
      ],
    );
    return row;
  }

  async insert(columns: AllocationColumns): Promise<string> {
    const [row] = await this.unit.sql.execute<{ id: string }>(
      // A scenario's new rows get their id here: the live table's default is the id column's own.
      `INSERT INTO ${this.plan.allocations} (${this.plan.insertColumn()}${this.plan.isLive ? '' : 'id, '}company_id,
              user_id, project_id, from_date, to_date, status, mode, hours_per_day, percent,
              allocated_hours, note, billable, task_id, assigned_by_user_id, confirmed_by_user_id,
              confirmed_at, placeholder_id)
       VALUES (${this.plan.insertValue()}${this.plan.isLive ? '' : 'gen_random_uuid(), '}$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
      [this.unit.companyId(), ...valuesOf(columns)],
    );
    if (!row) {
      throw new Error('inserting an allocation answered no row');
    }
    return row.id;
  }

  async update(id: string, columns: AllocationColumns): Promise<void> {
    await this.unit.sql.execute(
      `UPDATE ${this.plan.allocations} SET user_id = $2, project_id = $3, from_date = $4, to_date = $5, status = $6,
              mode = $7, hours_per_day = $8, percent = $9, allocated_hours = $10, note = $11,
              billable = $12, task_id = $13, assigned_by_user_id = $14, confirmed_by_user_id = $15,
              confirmed_at = $16, placeholder_id = $17, updated_at = now()
        WHERE company_id = $1 AND id = $18${this.plan.where()}`,
      [this.unit.companyId(), ...valuesOf(columns), id],
    );
  }

  /** Deletes the allocation; in a scenario, one copied from the live plan is remembered as removed. */
  async delete(id: string): Promise<void> {
    await rememberRemoval(this.unit, this.plan, 'allocation', id);
    await this.unit.sql.execute(
      `DELETE FROM ${this.plan.allocations} WHERE company_id = $1 AND id = $2${this.plan.where()}`,
      [this.unit.companyId(), id],
    );
  }

  /** Replaces the allocation's days (every day of its range, 0 where nothing is booked). */
  async writeDays(
    allocation: {
      id: string;
      user_id: number | null;
      placeholder_id: string | null;
      status: AllocationStatus;
    },
    days: readonly PlannedDay[],
  ): Promise<void> {
    await this.unit.sql.execute(
      `DELETE FROM ${this.plan.days} WHERE company_id = $1 AND allocation_id = $2${this.plan.where()}`,
      [this.unit.companyId(), allocation.id],
    );
    await this.unit.sql.execute(
      `INSERT INTO ${this.plan.days} (${this.plan.insertColumn()}company_id, allocation_id, day, user_id,
              placeholder_id, status, hours, pinned)
       SELECT ${this.plan.insertValue()}$1, $2, day, $3, $8::uuid, $4, hours, pinned
         FROM unnest($5::date[], $6::numeric[], $7::boolean[]) AS planned (day, hours, pinned)`,
      [
        this.unit.companyId(),
        allocation.id,
        allocation.user_id,
        allocation.status,
        days.map((day) => day.date),
        days.map((day) => day.hours),
        days.map((day) => day.pinned),
        allocation.placeholder_id,
      ],
    );
  }

  /** What the person is booked for on each day of the range, by status (every allocation of theirs). */
  async bookedByDay(userId: number, from: string, to: string): Promise<Map<string, BookedDay>> {
    const rows = await this.unit.sql.select<{ date: string; confirmed: number; tentative: number }>(
      `SELECT day::text AS date,
              coalesce(sum(hours) FILTER (WHERE status = 'confirmed'), 0)::float8 AS confirmed,
              coalesce(sum(hours) FILTER (WHERE status = 'tentative'), 0)::float8 AS tentative
         FROM ${this.plan.days}
        WHERE company_id = $1${this.plan.where()} AND user_id = $2 AND day BETWEEN $3::date AND $4::date
        GROUP BY day`,
      [this.unit.companyId(), userId, from, to],
    );
    return new Map(rows.map((row) => [row.date, { confirmed: row.confirmed, tentative: row.tentative }]));
  }

  daysOf(allocationIds: readonly string[]): Promise<Map<string, PlannedDay[]>> {
    return daysOf(this.unit.sql.select.bind(this.unit.sql), this.plan, this.unit.companyId(), allocationIds);
  }

  /**
   * One `availability.over_allocated` event per day, in the feed of the write's company, naming the
   * allocation whose write put the day over. Under the feed's lock, as record_change() writes: the
   * cursors of a company grow in commit order.
   */
  async recordOverAllocated(
    allocation: { id: string; project_id: number },
    days: readonly OverAllocatedEventData[],
  ): Promise<void> {
    if (!this.plan.isLive) {
      // A scenario is no event: its over-allocated days are in its answers and its diff only.
      return;
    }
    await this.unit.sql.select('SELECT pg_advisory_xact_lock($1::integer, $2::integer)', [
      PLANNER_CHANGE_FEED_LOCK,
      this.unit.companyId(),
    ]);
    await this.unit.sql.execute(
      `INSERT INTO change_events (company_id, entity, entity_id, kind, project_id, user_id, transaction_id, data)
       SELECT $1, 'availability', $2, 'over_allocated', $3, (day ->> 'user_id')::integer,
              pg_current_xact_id()::text::bigint, day
         FROM jsonb_array_elements($4::jsonb) AS day`,
      [this.unit.companyId(), allocation.id, allocation.project_id, JSON.stringify(days)],
    );
  }
}

function valuesOf(columns: AllocationColumns): unknown[] {
  return [
    columns.user_id,
    columns.project_id,
    columns.from,
    columns.to,
    columns.status,
    columns.mode,
    columns.hours_per_day,
    columns.percent_of_capacity,
    columns.total_hours.toFixed(2),
    columns.note,
    columns.billable,
    columns.task_id,
    columns.assigned_by_user_id,
    columns.confirmed_by_user_id,
    columns.confirmed_at,
    columns.placeholder_id,
  ];
}
