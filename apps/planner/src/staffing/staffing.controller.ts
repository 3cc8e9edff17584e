import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { InPlan } from '../scenarios/in-plan.decorator';
import { ScenarioEntry } from '../scenarios/scenario-entry';
import { CandidatesDto, CandidatesQueryDto, DemandDto, DemandQueryDto } from './dto/staffing.dto';
import { StaffingService } from './staffing.service';

/** Who could fill a placeholder, and demand against supply (issue 39). */
@ApiTags('staffing')
@ApiBearerAuth()
@Controller('v2')
export class StaffingController {
  constructor(
    private readonly staffing: StaffingService,
    private readonly scenarioEntry: ScenarioEntry,
  ) {}

  @Get('placeholders/:id/candidates')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "People ranked by the placeholder's hours they can cover in a window, with why",
    description:
      "Day by day, each person covers the least of their free hours (the availability read's) and what the " +
      'placeholder books; ranked by hours covered, then position, category and labels matched.',
  })
  @ApiOkResponse({ type: CandidatesDto })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: 'InvalidAvailabilityQueryError' })
  @InPlan({ notFound: 'PlaceholderNotFoundError' })
  async candidates(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Query() query: CandidatesQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<CandidatesDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.staffing.candidates(id, query, caller);
  }

  @Get('demand')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Demand against supply by position or category, per week or month',
    description:
      'demand_unfilled: hours placeholders book; demand_filled: hours the group’s people are booked for; ' +
      'supply_available: the sum of their `available` as GET /v2/availability answers it. At most 366 days.',
  })
  @ApiOkResponse({ type: DemandDto })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: 'InvalidAvailabilityQueryError' })
  @InPlan()
  async demand(@Query() query: DemandQueryDto, @Caller() caller: CallerContext): Promise<DemandDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.staffing.demand(query, caller);
  }
}
