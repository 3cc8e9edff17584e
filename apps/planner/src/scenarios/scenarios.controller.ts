import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { ConditionalRead, ConditionalResource } from '@platform/runtime';
import type { FastifyReply } from 'fastify';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import {
  ApplyScenarioAnswerDto,
  CreateScenarioDto,
  ListScenariosQueryDto,
  ScenarioConflictErrorBodyDto,
  ScenarioDiffDto,
  ScenarioDto,
  ScenarioPageDto,
} from './dto/scenario.dto';
import { Scenario } from './scenario.entity';
import { ScenariosService } from './scenarios.service';

const APPLIED = 'ScenarioAppliedError: the scenario was applied already';

/** A 412's current representation: the scenario as its read answers it. */
const currentScenario = (controller: ScenariosController, params: Record<string, string>) =>
  controller.get(params.id ?? '');

/** What-if scenarios of the company's plan (issue 39): shared drafts, diffed and applied atomically. */
@ApiTags('scenarios')
@ApiBearerAuth()
@Controller('v2/scenarios')
export class ScenariosController {
  constructor(private readonly scenarios: ScenariosService) {}

  @Post()
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Scenario)
  @ApiOperation({
    summary:
      'Make a scenario: a named draft copy of the live plan (or of another draft), shared by the company',
    description:
      'Then pass scenario_id to the /v2 allocation, placeholder, availability and demand routes: their writes ' +
      'change the scenario only (no events, no webhooks), their reads answer the scenario. Answers it with ' +
      'Location and ETag.',
  })
  @ApiCreatedResponse({ type: ScenarioDto })
  @ApiBadRequestResponse({
    type: PlannerErrorBodyDto,
    description: 'InvalidAllocationError: the body; ScenarioNotFoundError: base names no scenario of yours',
  })
  @ApiConflictResponse({ type: PlannerErrorBodyDto, description: `${APPLIED} (base)` })
  async create(
    @Body() body: CreateScenarioDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ScenarioDto> {
    const created = await this.scenarios.create(body);
    void reply.status(201).header('location', `/v2/scenarios/${created.id}`);
    return created;
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "The company's scenarios, newest first (cursor pages)",
    description: 'Filter: status.',
  })
  @ApiOkResponse({ type: ScenarioPageDto })
  list(@Query() query: ListScenariosQueryDto): Promise<ScenarioPageDto> {
    return this.scenarios.list(query);
  }

  @Get(':id')
  @RequirePermission(Permission.ReadCompanyData)
  @ConditionalRead()
  @ApiOperation({ summary: 'One scenario; its ETag names its version, which every write into it moves' })
  @ApiOkResponse({ type: ScenarioDto })
  @ApiNotFoundResponse({ type: PlannerErrorBodyDto, description: 'ScenarioNotFoundError' })
  get(@Param('id', new ParseUUIDPipe()) id: string): Promise<ScenarioDto> {
    return this.scenarios.get(id);
  }

  @Get(':id/diff')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "What a draft scenario changes in the live plan, with each person's capacity before and after",
    description:
      'Every allocation and placeholder it creates, changes or deletes, as the live plan has it now and as the ' +
      'scenario does (allocations with their days), each with the conflict an apply would refuse it for ' +
      '(the live row changed or went since the copy). capacity_impact: per person whose bookings change, the ' +
      'availability figures over the days changed, live and in the scenario.',
  })
  @ApiOkResponse({ type: ScenarioDiffDto })
  @ApiNotFoundResponse({ type: PlannerErrorBodyDto, description: 'ScenarioNotFoundError' })
  @ApiConflictResponse({ type: PlannerErrorBodyDto, description: APPLIED })
  diff(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Caller() caller: CallerContext,
  ): Promise<ScenarioDiffDto> {
    return this.scenarios.diff(id, caller);
  }

  @Post(':id/apply')
  @HttpCode(200)
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Scenario, { ifMatch: 'required', read: currentScenario })
  @ApiOperation({
    summary: 'Apply a draft scenario to the live plan, all or nothing (If-Match required)',
    description:
      "One transaction under the scenario's lock and the locks of everyone it books, weighed under the " +
      "company's capacity policy. Any conflict (a live row changed since the copy, an overlap, a placeholder " +
      'still booked, a day over capacity under reject) refuses it all: 409 with every conflict. Applied, each ' +
      'change is an event as any write, the scenario an `updated` event of `scenarios`; it is then read-only.',
  })
  @ApiOkResponse({ type: ApplyScenarioAnswerDto })
  @ApiNotFoundResponse({ type: PlannerErrorBodyDto, description: 'ScenarioNotFoundError' })
  @ApiConflictResponse({
    type: ScenarioConflictErrorBodyDto,
    description: `ScenarioConflictError: every conflict, nothing applied; ${APPLIED}`,
  })
  apply(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Caller() caller: CallerContext,
  ): Promise<ApplyScenarioAnswerDto> {
    return this.scenarios.apply(id, caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(Permission.ManageDelivery)
  @ConditionalResource(Scenario, { ifMatch: 'required', read: currentScenario })
  @ApiOperation({
    summary: 'Discard a scenario (If-Match required)',
    description:
      'A draft goes with its copy of the plan; an applied one is forgotten, its changes stay live.',
  })
  @ApiNoContentResponse({ description: 'Discarded' })
  @ApiNotFoundResponse({ type: PlannerErrorBodyDto, description: 'ScenarioNotFoundError' })
  async remove(@Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    await this.scenarios.remove(id);
  }
}
