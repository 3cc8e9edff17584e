import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, type CallerContext } from '@platform/main-api-client';
import type { FastifyReply } from 'fastify';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { InPlan } from '../scenarios/in-plan.decorator';
import { ScenarioEntry } from '../scenarios/scenario-entry';
import { AvailabilityService } from './availability.service';
import {
  AvailabilityDto,
  AvailabilityQueryDto,
  AvailabilitySearchDto,
  AvailabilitySearchQueryDto,
} from './dto/availability.dto';

/** Who is free, when (issue 38): capacity less bookings, per person and period, across projects. */
@ApiTags('availability')
@ApiBearerAuth()
@Controller('v2/availability')
export class AvailabilityController {
  constructor(
    private readonly availability: AvailabilityService,
    private readonly scenarioEntry: ScenarioEntry,
  ) {}

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Availability of people (by ids, team or position) over a window, by day, week or month',
    description:
      "Per person: the window's totals and a series of working, holidays, time_off, capacity, confirmed, " +
      'tentative, available and utilization; each period the exact sum of its days, the totals the sum of the ' +
      'series. explain=true adds every day with what made it. The ETag is computed from the revisions of the ' +
      'inputs (main-api’s calendars, schedules and leaves, and the plan): a poll with If-None-Match is a 304 ' +
      'until one of them changes. At most 200 people and 366 days.',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a previous answer' })
  @ApiOkResponse({ type: AvailabilityDto })
  @ApiResponse({ status: 304, description: 'Nothing it depends on changed since the ETag given' })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: 'InvalidAvailabilityQueryError' })
  @InPlan()
  async read(
    @Query() query: AvailabilityQueryDto,
    @Caller() caller: CallerContext,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('if-none-match') ifNoneMatch?: string,
  ): Promise<AvailabilityDto | undefined> {
    await this.scenarioEntry.enter(query.scenario_id);
    const { etag, answer } = await this.availability.read(query, caller, ifNoneMatch);
    if (etag) {
      void reply.header('etag', etag);
    }
    if (!answer) {
      void reply.status(304);
    }
    return answer;
  }

  @Get('search')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'People with at least `hours` free in a window, best first, with the first window that fits',
    description:
      'Weighs the people in position_id (or every current person, at most 500), by the same figures as the ' +
      'availability read; label_ids ranks those carrying more of them first; each row says why.',
  })
  @ApiOkResponse({ type: AvailabilitySearchDto })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: 'InvalidAvailabilityQueryError' })
  @InPlan()
  async search(
    @Query() query: AvailabilitySearchQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<AvailabilitySearchDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.availability.search(query, caller);
  }
}
