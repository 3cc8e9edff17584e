import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, MainApiErrorBodyDto, type Paginated, ApiPaginatedResponse } from '@platform/contracts';
import { ParseIdPipe } from '@platform/runtime';
import { CreateTimeEntryDto, TimeEntryDto } from './dto/time-entry.dto';
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
  @ApiOperation({ summary: 'List time entries; filters: user_id, project_id, task_id, user_position_id' })
  @ApiPaginatedResponse(TimeEntryDto)
  list(@Query() query: ListQueryDto): Promise<Paginated<TimeEntryDto> | TimeEntryDto[]> {
    return this.hours.list(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One time entry by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: TimeEntryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<TimeEntryDto> {
    return TimeEntryDto.from(await this.hours.get(id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a time entry (answers the deleted entry)' })
  @RequirePermission(Permission.ManageDelivery)
  @ApiOkResponse({ type: TimeEntryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<TimeEntryDto> {
    return TimeEntryDto.from(await this.hours.remove(id));
  }
}
