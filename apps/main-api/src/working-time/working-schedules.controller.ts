import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ConditionalRead, ConditionalResource, ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreateWorkingScheduleDto,
  ReplaceWorkingWeekDto,
  WorkingScheduleDto,
  WorkingSchedulesQueryDto,
} from './dto/working-time.dto';
import { ParseDayPipe } from './parse-day.pipe';
import { WorkingSchedule } from './working-schedule.entity';
import { WorkingSchedulesService } from './working-schedules.service';

/** A 412's current schedule: as its read answers it. */
const currentSchedule = (controller: WorkingSchedulesController, params: Record<string, string>) =>
  controller.schedule(Number(params.user_id), params.effective_from);

const FIRST_DAY = {
  name: 'effective_from',
  description: "The schedule's first day, YYYY-MM-DD",
  example: '2027-03-01',
};

/** A person's working weeks with history (issue 38): `/v1/working-time/users/{user_id}/schedules`. */
@ApiTags('working time')
@Controller('working-time/users/:user_id/schedules')
export class WorkingSchedulesController {
  constructor(private readonly schedules: WorkingSchedulesService) {}

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "A person's working weeks by first day, oldest first; with `at`, the one in force that day",
    description:
      'Each is in force from its `effective_from` until the next one starts; the first also before it. ' +
      "The interface's `GET /working-time/users/{user_id}` answers the entries of the one in force today (UTC).",
  })
  @ApiOkResponse({ type: [WorkingScheduleDto] })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto, description: 'No such user; with `at`, no schedule' })
  list(
    @Param('user_id', ParseIdPipe) userId: number,
    @Query() query: WorkingSchedulesQueryDto,
  ): Promise<WorkingScheduleDto[]> {
    return this.schedules.list(userId, query.at);
  }

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Give the person a working week from a day on (until their next schedule; roles 1-2)',
    description: 'Each day_of_week at most once, start_at before end_at, as the interface’s PUT.',
  })
  @ApiCreatedResponse({ type: WorkingScheduleDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiUnprocessableEntityResponse({
    type: MainApiErrorBodyDto,
    description: 'A schedule of the person already starts that day',
  })
  create(
    @Param('user_id', ParseIdPipe) userId: number,
    @Body() body: CreateWorkingScheduleDto,
  ): Promise<WorkingScheduleDto> {
    return this.schedules.create(userId, body);
  }

  @Get(':effective_from')
  @ConditionalRead()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'The person’s schedule starting that day' })
  @ApiParam(FIRST_DAY)
  @ApiOkResponse({ type: WorkingScheduleDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  schedule(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('effective_from', ParseDayPipe) effectiveFrom: string,
  ): Promise<WorkingScheduleDto> {
    return this.schedules.get(userId, effectiveFrom);
  }

  @Put(':effective_from')
  @ConditionalResource(WorkingSchedule, { param: 'effective_from', read: currentSchedule })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Replace the week of the schedule starting that day (roles 1-2)' })
  @ApiParam(FIRST_DAY)
  @ApiOkResponse({ type: WorkingScheduleDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  replace(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('effective_from', ParseDayPipe) effectiveFrom: string,
    @Body() body: ReplaceWorkingWeekDto,
  ): Promise<WorkingScheduleDto> {
    return this.schedules.replace(userId, effectiveFrom, body);
  }

  @Delete(':effective_from')
  @HttpCode(204)
  @ConditionalResource(WorkingSchedule, { param: 'effective_from', read: currentSchedule })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Remove the schedule starting that day: the one before it runs on (roles 1-2)',
  })
  @ApiParam(FIRST_DAY)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('effective_from', ParseDayPipe) effectiveFrom: string,
  ): Promise<void> {
    await this.schedules.remove(userId, effectiveFrom);
  }
}
