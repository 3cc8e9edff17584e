import { TimeEntry } from './time-entry.entity';
import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { CreateTimeEntryDto, TimeEntryDto, UpdateTimeEntryDto } from './dto/time-entry.dto';
import { HoursService } from './hours.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('hours')
@Controller('hours')
export class HoursController {
  constructor(private readonly hours: HoursService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'Log hours on a project (optionally a task and a position)' })
  @ApiCreatedResponse({ type: TimeEntryDto })
  async create(@Body() body: CreateTimeEntryDto): Promise<TimeEntryDto> {
    return TimeEntryDto.from(await this.hours.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      'List time entries; filters: user_id, project_id, task_id, user_position_id, date and hours (with ranges); sort: date',
  })
  @ApiFiltersExample({ project_id: [1, 2] })
  @ApiPaginatedResponse(TimeEntryDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<TimeEntryDto>> {
    return this.hours.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One time entry by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: TimeEntryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<TimeEntryDto> {
    return TimeEntryDto.from(await this.hours.get(id));
  }

  @Put(':id')
  @ConditionalResource(TimeEntry)
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Update a time entry (only the fields sent change; answers the updated entry)',
    description:
      'The rules of create apply to the entry as it becomes: a real day, 0 < hours ≤ 24, references to ' +
      "rows of your company, a task of the entry's project. Roles 1-3 may correct anyone's hours; roles " +
      '4 and 5 only their own entries, and may not give them to another user.',
  })
  @ApiOkResponse({ type: TimeEntryDto, description: 'The entry as it is now' })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description: 'AC002: a field breaks its rules (named)',
  })
  @ApiForbiddenResponse({
    type: MainApiErrorBodyDto,
    description: "AC006: role 6, or role 4/5 on another user's hours",
  })
  @ApiNotFoundResponse({
    type: MainApiErrorBodyDto,
    description: "AC003: no such time entry in your company (another company's ids answer the same)",
  })
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateTimeEntryDto,
  ): Promise<TimeEntryDto> {
    return TimeEntryDto.from(await this.hours.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(TimeEntry)
  @ApiOperation({ summary: 'Delete a time entry (answers the deleted entry)' })
  @RequirePermission(Permission.ManageDelivery)
  @ApiOkResponse({ type: TimeEntryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<TimeEntryDto> {
    return TimeEntryDto.from(await this.hours.remove(id));
  }
}
