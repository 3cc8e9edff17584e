import { Injectable } from '@nestjs/common';
import { RequestTenantScope } from '@platform/database';
import { RequestPlan } from '../scenarios/request-plan';

/** Hours booked on one day, the day as a day number (days since 1970-01-01). */
export interface DayHours {
  day: number;
  hours: number;
}

/**
 * The staffing reads' statements: what placeholders book (the demand no person fills yet), in the
 * request's plan (RequestPlan: the live one, or a scenario's).
 */
@Injectable()
export class StaffingRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    private readonly plans: RequestPlan,
  ) {}

  /** What the placeholder books on each day of the range (days with hours only). */
  placeholderDays(placeholderId: string, from: string, to: string): Promise<DayHours[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<DayHours>(
      `SELECT day - DATE '1970-01-01' AS day, sum(hours)::float8 AS hours FROM ${plan.days}
        WHERE company_id = $1${plan.where()} AND placeholder_id = $2::uuid AND day BETWEEN $3::date AND $4::date AND hours > 0
        GROUP BY day ORDER BY day`,
      [this.scope.companyId(), placeholderId, from, to],
    );
  }

  /** The first and last day of the placeholder's bookings, if it has any. */
  async placeholderSpan(placeholderId: string): Promise<{ from: string; to: string } | undefined> {
    const plan = this.plans.get();
    const [row] = await this.scope.sql.select<{ from: string | null; to: string | null }>(
      `SELECT min(from_date)::text AS "from", max(to_date)::text AS "to" FROM ${plan.allocations}
        WHERE company_id = $1${plan.where()} AND placeholder_id = $2::uuid`,
      [this.scope.companyId(), placeholderId],
    );
    return row?.from && row.to ? { from: row.from, to: row.to } : undefined;
  }

  /**
   * What every placeholder books on each day of the range, by its position or its category (null:
   * none), confirmed and tentative alike: pipeline work is demand before it is sure.
   */
  unfilledByGroup(
    groupBy: 'position' | 'category',
    from: string,
    to: string,
  ): Promise<(DayHours & { group_id: number | null })[]> {
    const column = groupBy === 'position' ? 'p.position_id' : 'p.category_id';
    const plan = this.plans.get();
    return this.scope.sql.select(
      `SELECT ${column} AS group_id, d.day - DATE '1970-01-01' AS day, sum(d.hours)::float8 AS hours
         FROM ${plan.days} d
         JOIN ${plan.placeholders} p ON p.id = d.placeholder_id AND p.company_id = d.company_id${plan.where('p')}
        WHERE d.company_id = $1${plan.where('d')} AND d.placeholder_id IS NOT NULL AND d.day BETWEEN $2::date AND $3::date
        GROUP BY 1, 2`,
      [this.scope.companyId(), from, to],
    );
  }
}
