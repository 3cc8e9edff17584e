import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { entityIdsOf } from '@platform/contracts';
import { ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { CompanyWeeksQueryDto, ReplaceWorkingWeekDto, WorkingTimeEntryDto } from './dto/working-time.dto';
import { WorkingTimeService } from './working-time.service';

@ApiTags('working time')
@ApiExtraModels(WorkingTimeEntryDto)
@Controller('working-time')
export class WorkingTimeController {
  constructor(private readonly workingTime: WorkingTimeService) {}

  @Get('company/with/users')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "Every user's working week (or only some users'), as an object keyed by user id",
    description: 'Users without any working-time entry are absent from the object.',
  })
  @ApiOkResponse({
    description: "Each key a user id, its value that user's working-time entries",
    schema: {
      type: 'object',
      additionalProperties: { type: 'array', items: { $ref: getSchemaPath(WorkingTimeEntryDto) } },
      example: {
        '12': [
          {
            daily_hours: 8,
            day_of_week: 1,
            start_at: '09:00:00',
            end_at: '18:00:00',
            user_id: 12,
            break_time: 1,
          },
        ],
      },
    },
  })
  companyWeeks(@Query() query: CompanyWeeksQueryDto): Promise<Record<string, WorkingTimeEntryDto[]>> {
    return this.workingTime.companyWeeks(
      query.user_ids === undefined ? undefined : entityIdsOf(query.user_ids),
    );
  }

  @Get('users/:user_id')
  @ApiOperation({ summary: "A user's working week (one entry per working day)" })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: [WorkingTimeEntryDto] })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  week(@Param('user_id', ParseIdPipe) userId: number): Promise<WorkingTimeEntryDto[]> {
    return this.workingTime.week(userId);
  }

  @Put('users/:user_id')
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: "Replace a user's working week (each day_of_week at most once)" })
  @ApiOkResponse({ type: [WorkingTimeEntryDto] })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  replaceWeek(
    @Param('user_id', ParseIdPipe) userId: number,
    @Body() body: ReplaceWorkingWeekDto,
  ): Promise<WorkingTimeEntryDto[]> {
    return this.workingTime.replaceWeek(userId, body);
  }
}
