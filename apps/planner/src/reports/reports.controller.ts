import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { PlannedHoursDto, PlannedHoursQueryDto } from './dto/planned-hours.dto';
import { ReportsService } from './reports.service';

/** Reads of the plan made for other services' reports (issue 40: main-api's project forecast). */
@ApiTags('reports')
@ApiBearerAuth()
@Controller('v2/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('planned-hours')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Hours the live plan books on many projects, by person or placeholder and by day, week or month',
    description:
      'Each row sums the hours of the allocation days (the ledger’s daily plan, as GET /v2/allocations?include=days ' +
      'answers them) of one project and one person or placeholder whose day falls in the period and in [from, to], ' +
      'split by the day’s status into confirmed_hours and tentative_hours. Only periods with hours have a row; a ' +
      'project without bookings has none (no 404). Allocations not planned yet are planned first. At most 500 ' +
      'projects and 3700 days.',
  })
  @ApiOkResponse({ type: PlannedHoursDto })
  @ApiBadRequestResponse({
    type: PlannerErrorBodyDto,
    description:
      'InvalidAllocationError: project_ids, from, to or granularity asked wrongly (the message names it)',
  })
  plannedHours(
    @Query() query: PlannedHoursQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<PlannedHoursDto> {
    return this.reports.plannedHours(query, caller);
  }
}
