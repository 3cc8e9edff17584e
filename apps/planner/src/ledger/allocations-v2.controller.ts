import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, callerContextOf, type CallerContext } from '@platform/main-api-client';
import { ConditionalRead, ConditionalResource } from '@platform/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Allocation } from '../allocations/allocation.entity';
import { locationIn, ScenarioQueryDto } from '../scenarios/dto/scenario-query.dto';
import { InPlan } from '../scenarios/in-plan.decorator';
import { ScenarioEntry } from '../scenarios/scenario-entry';
import { AllocationsV2Service } from './allocations-v2.service';
import {
  AllocationV2Dto,
  AllocationV2PageDto,
  CreateAllocationV2Dto,
  ListAllocationsV2QueryDto,
  OverCapacityErrorBodyDto,
  SplitAllocationAnswerDto,
  SplitAllocationDto,
  UpdateAllocationV2Dto,
} from './dto/allocation-v2.dto';

const OVER_CAPACITY =
  'OverCapacityError: under the reject capacity policy a day of the person would be over capacity; ' +
  '`over_allocated_days` names them, and nothing was written';

/**
 * A 412's current representation: the allocation as its read answers it, in the plan the write
 * entered already (so no scenario_id here).
 */
const currentAllocation = (
  controller: AllocationsV2Controller,
  params: Record<string, string>,
  request: FastifyRequest,
) => controller.get(params.id ?? '', {}, callerContextOf(request));

/** The v2 allocations: resources with their days, across projects (issue 37). */
@ApiTags('allocations v2')
@ApiBearerAuth()
@Controller('v2/allocations')
export class AllocationsV2Controller {
  constructor(
    private readonly allocations: AllocationsV2Service,
    private readonly scenarioEntry: ScenarioEntry,
  ) {}

  @Post()
  @RequirePermission(Permission.ManageDelivery)
  // Records the created row's version, so the 201 carries its ETag.
  @ConditionalResource(Allocation)
  @ApiOperation({
    summary: 'Book a person on a project (roles 1-3)',
    description:
      'One of hours_per_day, total_hours, percent_of_capacity; days pins single days. Answers the allocation ' +
      "with its days and over_allocated_days (the person's days over capacity that it books), Location and ETag.",
  })
  @ApiCreatedResponse({ type: AllocationV2Dto })
  @ApiUnprocessableEntityResponse({ type: OverCapacityErrorBodyDto, description: OVER_CAPACITY })
  @InPlan({
    conflict: 'AllocationAlreadyExistInDatesRangeError: the person is on the project on one of these days',
  })
  async create(
    @Body() body: CreateAllocationV2Dto,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AllocationV2Dto> {
    await this.scenarioEntry.enter(query.scenario_id);
    const created = await this.allocations.create(body, caller);
    void reply.status(201).header('location', locationIn(query, `/v2/allocations/${created.id}`));
    return created;
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Allocations overlapping a window, across projects and people (cursor pages)',
    description: 'Ordered by first day, then id. include=days adds each allocation’s days.',
  })
  @ApiOkResponse({ type: AllocationV2PageDto })
  @InPlan()
  async list(
    @Query() query: ListAllocationsV2QueryDto,
    @Caller() caller: CallerContext,
  ): Promise<AllocationV2PageDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.allocations.list(query, caller);
  }

  @Get(':id')
  @RequirePermission(Permission.ReadCompanyData)
  @ConditionalRead()
  @ApiOperation({ summary: 'One allocation, with its days; its ETag names its version' })
  @ApiOkResponse({ type: AllocationV2Dto })
  @InPlan({ notFound: 'AllocationNotFoundError' })
  async get(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<AllocationV2Dto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.allocations.get(id, caller);
  }

  @Patch(':id')
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Allocation, {
    ifMatch: 'required',
    read: currentAllocation,
  })
  @ApiOperation({
    summary: 'Change an allocation: move it, change its hours, person, project or status (If-Match required)',
    description:
      'Fields left out stay. A unit given replaces the mode; days replaces the pinned days. Confirming records ' +
      'who and when. Answers as a create does.',
  })
  @ApiOkResponse({ type: AllocationV2Dto })
  @ApiUnprocessableEntityResponse({ type: OverCapacityErrorBodyDto, description: OVER_CAPACITY })
  @InPlan({ notFound: 'AllocationNotFoundError', conflict: 'AllocationAlreadyExistInDatesRangeError' })
  async update(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: UpdateAllocationV2Dto,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<AllocationV2Dto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.allocations.update(id, body, caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Allocation, {
    ifMatch: 'required',
    read: currentAllocation,
  })
  @ApiOperation({ summary: 'Remove an allocation and its days (If-Match required)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @InPlan({ notFound: 'AllocationNotFoundError' })
  async remove(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Query() query: ScenarioQueryDto,
  ): Promise<void> {
    await this.scenarioEntry.enter(query.scenario_id);
    await this.allocations.remove(id);
  }

  @Post(':id/split')
  @HttpCode(200)
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Allocation, {
    ifMatch: 'required',
    read: currentAllocation,
  })
  @ApiOperation({
    summary: 'Split an allocation in two at a day (If-Match required)',
    description:
      'The first part keeps the id and the days before `date`; the second, new, the rest. Each books the hours it had.',
  })
  @ApiBody({ type: SplitAllocationDto })
  @ApiOkResponse({ type: SplitAllocationAnswerDto })
  @InPlan({ notFound: 'AllocationNotFoundError' })
  async split(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: SplitAllocationDto,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<SplitAllocationAnswerDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.allocations.split(id, body, caller);
  }
}
