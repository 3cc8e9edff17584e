import { Injectable } from '@nestjs/common';
import { entityIdsOf, isCalendarDate } from '@platform/contracts';
import type { CallerContext } from '@platform/main-api-client';
import { invalidAllocation } from '../allocations/allocation.errors';
import { dayNumberOf } from '../allocations/calendar';
import { AllocationsV2Service } from '../ledger/allocations-v2.service';
import {
  MAX_PLANNED_HOURS_DAYS,
  type PlannedHoursDto,
  type PlannedHoursQueryDto,
} from './dto/planned-hours.dto';
import { ReportsRepository } from './reports.repository';

/**
 * Reads of the plan for other services' reports (issue 40): sums of the ledger's days, after the
 * allocations a v2 read plans again are planned, so the sums are the days GET /v2/allocations
 * answers.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly allocations: AllocationsV2Service,
    private readonly reports: ReportsRepository,
  ) {}

  async plannedHours(query: PlannedHoursQueryDto, caller: CallerContext): Promise<PlannedHoursDto> {
    const { from, to, granularity } = query;
    for (const field of ['from', 'to'] as const) {
      if (!isCalendarDate(query[field])) {
        throw invalidAllocation(`${field} must be a real calendar date YYYY-MM-DD (${query[field]} is not)`);
      }
    }
    if (from > to) {
      throw invalidAllocation(`from (${from}) must be on or before to (${to})`);
    }
    if (dayNumberOf(to) - dayNumberOf(from) + 1 > MAX_PLANNED_HOURS_DAYS) {
      throw invalidAllocation(
        `to (${to}) must be within ${MAX_PLANNED_HOURS_DAYS} days of from (${from}), both included`,
      );
    }
    const projectIds = entityIdsOf(query.project_ids);
    // Allocations booked through the interface have no days until a v2 read plans them.
    await this.allocations.planProjects(projectIds, from, to, caller);
    const rows = await this.reports.plannedHours(projectIds, from, to, granularity);
    return { from, to, granularity, rows };
  }
}
