import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantUnitOfWork } from '@platform/database';
import type { Plan } from '../scenarios/plan';
import { RequestPlan } from '../scenarios/request-plan';
import { enterScenarioWrite, rememberRemoval } from '../scenarios/scenarios.repository';
import { LOCK_PLACEHOLDERS_SQL } from './placeholder-lock';

/** The columns a placeholder write sets. */
export interface PlaceholderColumns {
  name: string;
  position_id: number | null;
  category_id: number | null;
  project_id: number | null;
  label_ids: number[];
}

/** A placeholder as its routes answer it (times ISO, UTC). */
export interface PlaceholderRow extends PlaceholderColumns {
  id: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface PlaceholderFilter {
  projectIds?: number[];
  positionIds?: number[];
  categoryIds?: number[];
  after?: { name: string; id: string };
  limit: number;
}

const COLUMNS = `p.id, p.name, p.position_id, p.category_id, p.project_id, p.label_ids, p.version,
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

/**
 * The placeholders of the request's company (RequestTenantScope) and plan (RequestPlan: the live
 * one, or a scenario's copy); writes in one transaction each.
 */
@Injectable()
export class PlaceholdersRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    private readonly plans: RequestPlan,
  ) {}

  transaction<T>(work: (unit: PlaceholdersUnit) => Promise<T>): Promise<T> {
    const plan = this.plans.get();
    return this.scope.transaction(async (unit) => {
      await enterScenarioWrite(unit, plan, 'change');
      return work(new PlaceholdersUnit(unit, plan));
    });
  }

  async get(id: string): Promise<PlaceholderRow | undefined> {
    const plan = this.plans.get();
    const [row] = await this.scope.sql.select<PlaceholderRow>(
      `SELECT ${COLUMNS} FROM ${plan.placeholders} p WHERE p.company_id = $1 AND p.id = $2${plan.where('p')}`,
      [this.scope.companyId(), id],
    );
    return row;
  }

  byIds(ids: readonly string[]): Promise<PlaceholderRow[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<PlaceholderRow>(
      `SELECT ${COLUMNS} FROM ${plan.placeholders} p WHERE p.company_id = $1 AND p.id = ANY($2::uuid[])${plan.where('p')}`,
      [this.scope.companyId(), ids],
    );
  }

  /** Placeholders by name, then id, `limit + 1` of them at most (one more says there are more). */
  list(filter: PlaceholderFilter): Promise<PlaceholderRow[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<PlaceholderRow>(
      `SELECT ${COLUMNS} FROM ${plan.placeholders} p
        WHERE p.company_id = $1${plan.where('p')}
          AND ($2::integer[] IS NULL OR p.project_id = ANY($2::integer[]))
          AND ($3::integer[] IS NULL OR p.position_id = ANY($3::integer[]))
          AND ($4::integer[] IS NULL OR p.category_id = ANY($4::integer[]))
          AND ($5::varchar IS NULL OR (p.name, p.id) > ($5::varchar, $6::uuid))
        ORDER BY p.name, p.id
        LIMIT $7`,
      [
        this.scope.companyId(),
        filter.projectIds ?? null,
        filter.positionIds ?? null,
        filter.categoryIds ?? null,
        filter.after?.name ?? null,
        filter.after?.id ?? null,
        filter.limit + 1,
      ],
    );
  }
}

/** The statements of one placeholder write, in its transaction and plan. */
export class PlaceholdersUnit {
  constructor(
    private readonly unit: TenantUnitOfWork,
    private readonly plan: Plan,
  ) {}

  /**
   * The placeholder's advisory lock, as every writer of its bookings takes it (in a scenario, its
   * writers are one after the other already, under the scenario's row lock).
   */
  async lockBookings(id: string): Promise<void> {
    if (!this.plan.isLive) {
      return;
    }
    await this.unit.sql.select(LOCK_PLACEHOLDERS_SQL, [this.unit.companyId(), [id]]);
  }

  /** The placeholder, its row locked for the write (FOR UPDATE). */
  async lock(id: string): Promise<PlaceholderRow | undefined> {
    const [row] = await this.unit.sql.select<PlaceholderRow>(
      `SELECT ${COLUMNS} FROM ${this.plan.placeholders} p
        WHERE p.company_id = $1 AND p.id = $2${this.plan.where('p')} FOR UPDATE`,
      [this.unit.companyId(), id],
    );
    return row;
  }

  async insert(columns: PlaceholderColumns): Promise<string> {
    const [row] = await this.unit.sql.execute<{ id: string }>(
      // A scenario's new rows get their id here: the live table's default is the id column's own.
      `INSERT INTO ${this.plan.placeholders} (${this.plan.insertColumn()}${this.plan.isLive ? '' : 'id, '}company_id,
              name, position_id, category_id, project_id, label_ids)
       VALUES (${this.plan.insertValue()}${this.plan.isLive ? '' : 'gen_random_uuid(), '}$1, $2, $3, $4, $5,
              $6::integer[])
       RETURNING id`,
      [this.unit.companyId(), ...valuesOf(columns)],
    );
    if (!row) {
      throw new Error('inserting a placeholder answered no row');
    }
    return row.id;
  }

  async update(id: string, columns: PlaceholderColumns): Promise<void> {
    await this.unit.sql.execute(
      `UPDATE ${this.plan.placeholders} SET name = $2, position_id = $3, category_id = $4, project_id = $5,
              label_ids = $6::integer[], updated_at = now()
        WHERE company_id = $1 AND id = $7${this.plan.where()}`,
      [this.unit.companyId(), ...valuesOf(columns), id],
    );
  }

  /** Whether any allocation books the placeholder. */
  async isBooked(id: string): Promise<boolean> {
    const rows = await this.unit.sql.select(
      `SELECT 1 FROM ${this.plan.allocations} WHERE company_id = $1 AND placeholder_id = $2${this.plan.where()} LIMIT 1`,
      [this.unit.companyId(), id],
    );
    return rows.length > 0;
  }

  /** Deletes the placeholder; in a scenario, one copied from the live plan is remembered as removed. */
  async delete(id: string): Promise<void> {
    await rememberRemoval(this.unit, this.plan, 'placeholder', id);
    await this.unit.sql.execute(
      `DELETE FROM ${this.plan.placeholders} WHERE company_id = $1 AND id = $2${this.plan.where()}`,
      [this.unit.companyId(), id],
    );
  }
}

function valuesOf(columns: PlaceholderColumns): unknown[] {
  return [columns.name, columns.position_id, columns.category_id, columns.project_id, columns.label_ids];
}
