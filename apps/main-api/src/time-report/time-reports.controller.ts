import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CallerAuthorization, Permission, RequirePermission } from '@platform/auth';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { TimeReportQueryDto } from './dto/time-report-query.dto';
import { TimeReportDto } from './dto/time-report.dto';
import { MAX_TIME_REPORT_DAYS } from './time-report-periods';
import { TimeReportsService } from './time-reports.service';

@ApiTags('reports')
@Controller('reports')
export class TimeReportsController {
  constructor(private readonly reports: TimeReportsService) {}

  @Get('time')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Logged time by person and/or project and period, against the plan; a cursor page of groups',
    description:
      'One row per group (group_by: user, project or user,project), each with every period of from..to ' +
      '(day, ISO week Monday to Sunday, or calendar month; the first and last cut by from and to), empty ' +
      'ones too, and totals summing its periods. logged_hours = time entries that are not rejected; ' +
      'approved_hours = approved entries; billable_hours = billable entries that are not rejected. With ' +
      "compare=planned: planned_hours = the planner's confirmed hours, tentative_hours = its tentative " +
      "hours, variance_hours = logged_hours − planned_hours; a placeholder's planned hours count only " +
      'with group_by=project and no user_ids (nor a role 4-5 caller). The plan is read in one call to ' +
      'the planner for project_ids, or else every project of the company that is not deleted; without ' +
      'compare there is no planner call. A group is listed when it has entries that are not rejected in ' +
      'from..to, or (with compare=planned) planned hours there. Groups are ordered by user_id, then ' +
      'project_id, and paged by an opaque cursor (limit 1-200, default 50). Hours are summed exactly ' +
      'and rounded to hundredths. Roles 1-3 read everyone; roles 4-5 only their own time and plan ' +
      '(user_ids narrowed to their own id); role 6 nothing.',
  })
  @ApiOkResponse({ type: TimeReportDto })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description: `AC002: a bad group_by, granularity, compare, user_ids, project_ids, cursor or limit, or from/to not real days, to before from or more than ${MAX_TIME_REPORT_DAYS} days (named)`,
  })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: 'AC006: role 6' })
  @ApiServiceUnavailableResponse({
    type: MainApiErrorBodyDto,
    description: 'AC503: with compare=planned, the planner is unreachable, failing or not configured',
  })
  report(
    @Query() query: TimeReportQueryDto,
    @CallerAuthorization() authorization: string,
  ): Promise<TimeReportDto> {
    return this.reports.report(query, authorization);
  }
}
