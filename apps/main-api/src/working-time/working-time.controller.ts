import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { MainApiErrorBodyDto } from '@platform/contracts';
import { ParseIdPipe } from '@platform/runtime';
import { ReplaceWorkingWeekDto, WorkingTimeEntryDto } from './dto/working-time.dto';
import { WorkingTimeService } from './working-time.service';

@ApiTags('working time')
@Controller('working-time')
export class WorkingTimeController {
  constructor(private readonly workingTime: WorkingTimeService) {}

  @Get('company/with/users')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "Every user's working week, as an object keyed by user id" })
  @ApiOkResponse({ description: '{ "<user_id>": WorkingTimeEntryDto[] }' })
  companyWeeks(): Promise<Record<string, WorkingTimeEntryDto[]>> {
    return this.workingTime.companyWeeks();
  }

  @Get('users/:user_id')
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
