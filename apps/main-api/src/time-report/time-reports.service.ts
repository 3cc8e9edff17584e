import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { entityIdsOf, Role } from '@platform/contracts';
import { PlannerClient } from '../planner-client/planner.client';
import { DEFAULT_TIME_REPORT_GROUPS_PER_PAGE, type TimeReportQueryDto } from './dto/time-report-query.dto';
import type { TimeReportDto } from './dto/time-report.dto';
import {
  assemblePage,
  decodeCursor,
  firstKeysAfter,
  plannedGroups,
  type GroupKey,
  type PlannedGroup,
} from './time-report-groups';
import { assertReportRange, reportPeriods, type TimeReportGranularity } from './time-report-periods';
import { TimeReportRepository } from './time-report.repository';
import { TimeReportNotAllowedError } from './time-report.errors';

/** Roles that read everyone's time; 4 and 5 read their own. */
const READS_EVERYONE = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);
const READS_OWN = new Set<Role>([Role.Collaborator, Role.Freelancer]);

/** Logged time by person and project, against the planner's plan (issue 40). */
@Injectable()
export class TimeReportsService {
  constructor(
    private readonly reports: TimeReportRepository,
    private readonly planner: PlannerClient,
    private readonly principals: PrincipalContext,
  ) {}

  /**
   * A page of groups. The caller's mistakes (role, range, cursor) are answered before anything is
   * read; the planner is asked only with compare=planned, once, for every project that matters.
   */
  async report(query: TimeReportQueryDto, authorization: string): Promise<TimeReportDto> {
    const people = this.peopleOf(query);
    assertReportRange(query.from, query.to);
    const grouping = query.group_by ?? 'user,project';
    const granularity: TimeReportGranularity = query.granularity ?? 'week';
    const after = query.cursor === undefined ? undefined : decodeCursor(grouping, query.cursor);
    const limit = query.limit ?? DEFAULT_TIME_REPORT_GROUPS_PER_PAGE;
    const projectIds = query.project_ids === undefined ? undefined : entityIdsOf(query.project_ids);

    let planned: Map<string, PlannedGroup> | undefined;
    let plannedKeys: GroupKey[] = [];
    if (query.compare === 'planned') {
      const asked = projectIds ?? (await this.reports.companyProjectIds());
      const rows =
        asked.length === 0
          ? []
          : await this.planner.plannedHours(
              { projectIds: asked, from: query.from, to: query.to, granularity },
              authorization,
            );
      planned = plannedGroups(rows, grouping, people === undefined ? undefined : new Set(people));
      plannedKeys = firstKeysAfter(
        [...planned.values()].map((group) => group.key),
        after,
        limit + 1,
      );
    }

    const logged = await this.reports.loggedHours({
      grouping,
      granularity,
      from: query.from,
      to: query.to,
      userIds: people,
      projectIds,
      after,
      plannedKeys,
      count: limit + 1,
    });
    return assemblePage(logged, planned, reportPeriods(query.from, query.to, granularity), grouping, limit);
  }

  /**
   * Whose time the caller reads: user_ids for roles 1-3 (undefined: everyone), and for roles 4-5
   * only their own id, whatever user_ids says (an empty list when user_ids leaves it out).
   */
  private peopleOf(query: TimeReportQueryDto): number[] | undefined {
    const principal = this.principals.get();
    const asked = query.user_ids === undefined ? undefined : entityIdsOf(query.user_ids);
    if (READS_EVERYONE.has(principal.roleId)) {
      return asked;
    }
    if (!READS_OWN.has(principal.roleId)) {
      throw new TimeReportNotAllowedError('only roles 1-5 read the time report');
    }
    const own = principal.userId;
    if (own === undefined) {
      throw new TimeReportNotAllowedError('roles 4-5 read only their own time, and this token has no user');
    }
    return asked === undefined || asked.includes(own) ? [own] : [];
  }
}
