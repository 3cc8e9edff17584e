import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ApiFiltersExample, ApiPaginatedResponse, type ListAnswer } from '@platform/contracts';
import { ConditionalRead, ConditionalResource, ParseIdPipe } from '@platform/runtime';
import type { FastifyReply } from 'fastify';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreateTimeEntryDetailDto,
  TimeEntriesListQueryDto,
  TimeEntryDetailDto,
  UpdateTimeEntryDetailDto,
  UpsertTimeEntryDto,
} from './dto/time-entry-detail.dto';
import { HoursService } from './hours.service';
import { TimeEntry } from './time-entry.entity';

const LOCKED = {
  type: MainApiErrorBodyDto,
  description:
    "TimesheetLocked (AC004): the entry's day is on or before the company's timesheet lock; " +
    'DuplicateExternalId: another entry has this source and external_id',
};

/**
 * Time entries with everything they carry (issue 40): the rows of the interface's `/v1/hours`, whose
 * answers keep the interface's fields only, plus billing, approval and the tracker's key.
 */
@ApiTags('time entries')
@Controller('time-entries')
export class TimeEntriesController {
  constructor(private readonly hours: HoursService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Log hours with a note, billable flag, booking and tracker key (roles 4-5: their own)',
    description: "billable defaults to the project's; a new entry is draft until its week is submitted.",
  })
  @ApiCreatedResponse({ type: TimeEntryDetailDto })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description: 'AC002: a field breaks its rules (named)',
  })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: "Roles 4-5: someone else's hours" })
  @ApiConflictResponse(LOCKED)
  async create(@Body() body: CreateTimeEntryDetailDto): Promise<TimeEntryDetailDto> {
    return TimeEntryDetailDto.from(await this.hours.create(body));
  }

  @Post('upsert')
  @Idempotent()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "Create or update the entry of a tracker's key (or of the person's day on a project task)",
    description:
      'With source and external_id, the entry of that key; without, the one entry of the same user, project, ' +
      'task and date (409 AmbiguousTimeEntry when there are several). 201 when created, 200 when found: ' +
      'changed to the body, or left as it is (same version) when nothing differs, so importing twice ' +
      'changes nothing. A reviewed entry whose hours, day, person, project, task or billable flag change is draft again.',
  })
  @ApiCreatedResponse({ type: TimeEntryDetailDto, description: 'Created' })
  @ApiOkResponse({ type: TimeEntryDetailDto, description: 'Found: updated, or unchanged' })
  @ApiConflictResponse(LOCKED)
  async upsert(
    @Body() body: UpsertTimeEntryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TimeEntryDetailDto> {
    const { entry, created } = await this.hours.upsert(body);
    void reply.status(created ? 201 : 200);
    return TimeEntryDetailDto.from(entry);
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      'List time entries; from/to (days, both included), user_ids, project_ids, status, billable and source narrow it; ' +
      'filters: user_id, project_id, task_id, user_position_id, date, hours; sort: date',
  })
  @ApiFiltersExample({ project_id: [1, 2] })
  @ApiPaginatedResponse(TimeEntryDetailDto)
  list(@Query() query: TimeEntriesListQueryDto): Promise<ListAnswer<TimeEntryDetailDto>> {
    return this.hours.listDetailed(query);
  }

  @Get(':id')
  @ConditionalRead()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'One time entry with everything it carries' })
  @ApiOkResponse({ type: TimeEntryDetailDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<TimeEntryDetailDto> {
    return TimeEntryDetailDto.from(await this.hours.get(id));
  }

  @Put(':id')
  @ConditionalResource(TimeEntry)
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Update a time entry (only the fields sent change)',
    description:
      'The rules of `PUT /v1/hours/{id}`, and the billing fields. A submitted or approved entry whose hours change is draft again.',
  })
  @ApiOkResponse({ type: TimeEntryDetailDto })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description: 'AC002: a field breaks its rules (named)',
  })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: "Roles 4-5: someone else's hours" })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(LOCKED)
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateTimeEntryDetailDto,
  ): Promise<TimeEntryDetailDto> {
    return TimeEntryDetailDto.from(await this.hours.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(TimeEntry)
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({ summary: 'Delete a time entry (answers the deleted entry)' })
  @ApiOkResponse({ type: TimeEntryDetailDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(LOCKED)
  async remove(@Param('id', ParseIdPipe) id: number): Promise<TimeEntryDetailDto> {
    return TimeEntryDetailDto.from(await this.hours.remove(id));
  }
}
