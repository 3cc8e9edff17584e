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
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { ConditionalRead, ConditionalResource } from '@platform/runtime';
import type { FastifyReply } from 'fastify';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { OverCapacityErrorBodyDto } from '../ledger/dto/allocation-v2.dto';
import { AllocationsV2Service } from '../ledger/allocations-v2.service';
import { locationIn, ScenarioQueryDto } from '../scenarios/dto/scenario-query.dto';
import { InPlan } from '../scenarios/in-plan.decorator';
import { ScenarioEntry } from '../scenarios/scenario-entry';
import {
  CreatePlaceholderDto,
  ListPlaceholdersQueryDto,
  PlaceholderDto,
  PlaceholderPageDto,
  UpdatePlaceholderDto,
} from './dto/placeholder.dto';
import { FillPlaceholderAnswerDto, FillPlaceholderDto } from './dto/placeholder-fill.dto';
import { Placeholder } from './placeholder.entity';
import { PlaceholdersService } from './placeholders.service';

const INVALID =
  'InvalidPlaceholderError: a position, category or user label your company does not have (or a category ' +
  "other than the position's); ProjectNotFoundError; InvalidAllocationError: the body's fields";

/**
 * A 412's current representation: the placeholder as its read answers it, in the plan the write
 * entered already (so no scenario_id here).
 */
const currentPlaceholder = (controller: PlaceholdersController, params: Record<string, string>) =>
  controller.get(params.id ?? '', {});

/** Placeholders: roles booked before knowing who (issue 39). */
@ApiTags('placeholders')
@ApiBearerAuth()
@Controller('v2/placeholders')
export class PlaceholdersController {
  constructor(
    private readonly placeholders: PlaceholdersService,
    private readonly allocations: AllocationsV2Service,
    private readonly scenarioEntry: ScenarioEntry,
  ) {}

  @Post()
  @RequirePermission(Permission.ManageDelivery)
  // Records the created row's version, so the 201 carries its ETag.
  @ConditionalResource(Placeholder)
  @ApiOperation({
    summary: 'Create a placeholder: a role to book before knowing who (roles 1-3)',
    description:
      'Book it with POST /v2/allocations {placeholder_id, …}: its days fall Monday to Friday, with no capacity limit. ' +
      'Answers it with Location and ETag.',
  })
  @ApiCreatedResponse({ type: PlaceholderDto })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: INVALID })
  @InPlan()
  async create(
    @Body() body: CreatePlaceholderDto,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PlaceholderDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    const created = await this.placeholders.create(body, caller);
    void reply.status(201).header('location', locationIn(query, `/v2/placeholders/${created.id}`));
    return created;
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "The company's placeholders, by name then id (cursor pages)",
    description: 'Filters: project_ids, position_ids, category_ids.',
  })
  @ApiOkResponse({ type: PlaceholderPageDto })
  @InPlan()
  async list(@Query() query: ListPlaceholdersQueryDto): Promise<PlaceholderPageDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.placeholders.list(query);
  }

  @Get(':id')
  @RequirePermission(Permission.ReadCompanyData)
  @ConditionalRead()
  @ApiOperation({ summary: 'One placeholder; its ETag names its version' })
  @ApiOkResponse({ type: PlaceholderDto })
  @InPlan({ notFound: 'PlaceholderNotFoundError' })
  async get(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Query() query: ScenarioQueryDto,
  ): Promise<PlaceholderDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.placeholders.get(id);
  }

  @Patch(':id')
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Placeholder, { ifMatch: 'required', read: currentPlaceholder })
  @ApiOperation({
    summary: 'Change a placeholder (If-Match required)',
    description: "Fields left out stay; a new position without a category brings the position's category.",
  })
  @ApiOkResponse({ type: PlaceholderDto })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: INVALID })
  @InPlan({ notFound: 'PlaceholderNotFoundError' })
  async update(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: UpdatePlaceholderDto,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<PlaceholderDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.placeholders.update(id, body, caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Placeholder, { ifMatch: 'required', read: currentPlaceholder })
  @ApiOperation({ summary: 'Delete a placeholder that no allocation books (If-Match required)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @InPlan({
    notFound: 'PlaceholderNotFoundError',
    conflict: 'PlaceholderInUseError: allocations still book it; remove them first',
  })
  async remove(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Query() query: ScenarioQueryDto,
  ): Promise<void> {
    await this.scenarioEntry.enter(query.scenario_id);
    await this.placeholders.remove(id);
  }

  @Post(':id/assign')
  @HttpCode(200)
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Placeholder, { ifMatch: 'required', read: currentPlaceholder })
  @ApiOperation({
    summary:
      'Fill a placeholder: move its bookings (or those inside from..to) to a person (If-Match required)',
    description:
      "One transaction under the person's lock and the placeholder's. An allocation inside the window moves " +
      'whole and keeps its id; one crossing a bound is split: the placeholder keeps the original id and the days ' +
      "outside, the person's part is a new allocation. Moved days are planned again on the person's calendar in " +
      "their mode (hours_per_day on each working day; total_hours: the moved days' sum spread over capacity; " +
      "pinned days kept), under capacity_policy (else the company's). The placeholder's If-Match is required; " +
      'its version does not change.',
  })
  @ApiOkResponse({ type: FillPlaceholderAnswerDto })
  @ApiBadRequestResponse({
    type: PlannerErrorBodyDto,
    description: 'UserNotFoundError: no such (or a deleted) person; InvalidAllocationError: from/to',
  })
  @ApiUnprocessableEntityResponse({
    type: OverCapacityErrorBodyDto,
    description: 'OverCapacityError (reject policy): the days over capacity; nothing changed',
  })
  @InPlan({
    notFound: 'PlaceholderNotFoundError',
    conflict:
      'AllocationAlreadyExistInDatesRangeError: the person is already on a moved project those days; ' +
      'NothingToAssignError: no booking of the placeholder in the window. Nothing changed',
  })
  async assign(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: FillPlaceholderDto,
    @Query() query: ScenarioQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<FillPlaceholderAnswerDto> {
    await this.scenarioEntry.enter(query.scenario_id);
    return this.allocations.fill(id, body, caller);
  }
}
