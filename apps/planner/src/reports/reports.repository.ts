import { Injectable } from '@nestjs/common';
import { RequestTenantScope } from '@platform/database';
import type { Granularity } from '../availability/availability-series';
import { RequestPlan } from '../scenarios/request-plan';
import type { PlannedHoursRowDto } from './dto/planned-hours.dto';

/**
 * The reports' statements on the ledger's days, in the request's company (RequestTenantScope, with
 * row-level security behind it) and plan (RequestPlan; the reports enter no scenario, so the live one).
 */
@Injectable()
export class ReportsRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    private readonly plans: RequestPlan,
  ) {}

  /**
   * The hours these projects book each person and placeholder, by period of the window and day
   * status. The allocations come from their (company, project) index and their days from the
   * (allocation, day) key, so the cost follows the projects asked for, not the company's size.
   * Dates are truncated as timestamps without zone: a date would be read in the session's zone.
   */
  plannedHours(
    projectIds: readonly number[],
    from: string,
    to: string,
    granularity: Granularity,
  ): Promise<PlannedHoursRowDto[]> {
    const plan = this.plans.get();
    return this.scope.sql.select<PlannedHoursRowDto>(
      `SELECT a.project_id, a.user_id, a.placeholder_id, p.position_id, p.category_id,
              date_trunc($5::text, d.day::timestamp)::date::text AS period_start,
              coalesce(sum(d.hours) FILTER (WHERE d.status = 'confirmed'), 0)::float8 AS confirmed_hours,
              coalesce(sum(d.hours) FILTER (WHERE d.status = 'tentative'), 0)::float8 AS tentative_hours
         FROM ${plan.allocations} a
         JOIN ${plan.days} d ON d.allocation_id = a.id AND d.company_id = a.company_id${plan.where('d')}
         LEFT JOIN ${plan.placeholders} p
                ON p.id = a.placeholder_id AND p.company_id = a.company_id${plan.where('p')}
        WHERE a.company_id = $1${plan.where('a')} AND a.project_id = ANY($2::integer[])
          AND a.to_date >= $3::date AND a.from_date <= $4::date
          AND d.day BETWEEN $3::date AND $4::date AND d.hours > 0
        GROUP BY a.project_id, a.user_id, a.placeholder_id, p.position_id, p.category_id,
                 date_trunc($5::text, d.day::timestamp)
        ORDER BY a.project_id, period_start, a.user_id NULLS LAST, a.placeholder_id`,
      [this.scope.companyId(), projectIds, from, to, granularity],
    );
  }
}
