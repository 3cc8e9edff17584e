import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { PutTimesheetLockDto, ReviewTimesheetDto, TimesheetDto, TimesheetLockDto } from './dto/timesheet.dto';
import { TimesheetsService } from './timesheets.service';

const WEEK_PARAM = { name: 'iso_week', example: '2026-W48', description: 'An ISO week, YYYY-Www' };
const NOT_READY = {
  type: MainApiErrorBodyDto,
  description:
    'TimesheetNotReady (AC004): no entry of the week is in the state the step starts from; ' +
    "TimesheetLocked: the week is in the company's locked period",
};

/** Weekly approval of time and the company's period lock (issue 40). */
@ApiTags('timesheets')
@Controller()
export class TimesheetsController {
  constructor(private readonly timesheets: TimesheetsService) {}

  @Get('timesheets/:user_id/:iso_week')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiParam(WEEK_PARAM)
  @ApiOperation({ summary: "A person's week: its entries, totals and status" })
  @ApiOkResponse({ type: TimesheetDto })
  @ApiBadRequestResponse({ type: MainApiErrorBodyDto, description: 'AC002: iso_week is not a week' })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto, description: 'No such user in your company' })
  async get(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('iso_week') isoWeek: string,
  ): Promise<TimesheetDto> {
    return TimesheetDto.from(await this.timesheets.get(userId, isoWeek));
  }

  @Post('timesheets/:user_id/:iso_week/submit')
  @Idempotent()
  @HttpCode(200)
  @RequirePermission(Permission.CreateLeaves)
  @ApiParam(WEEK_PARAM)
  @ApiOperation({
    summary: "Submit a week for approval (the person's own; roles 1-3 anyone's)",
    description: 'Its draft and rejected entries become submitted, together.',
  })
  @ApiOkResponse({ type: TimesheetDto })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: "Roles 4-5: someone else's week" })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(NOT_READY)
  async submit(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('iso_week') isoWeek: string,
  ): Promise<TimesheetDto> {
    return TimesheetDto.from(await this.timesheets.submit(userId, isoWeek));
  }

  @Post('timesheets/:user_id/:iso_week/approve')
  @Idempotent()
  @HttpCode(200)
  @RequirePermission(Permission.DecideLeaves)
  @ApiParam(WEEK_PARAM)
  @ApiOperation({
    summary: "Approve a week's submitted entries (roles 1-3): approved time is actual in forecasts",
  })
  @ApiOkResponse({ type: TimesheetDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(NOT_READY)
  async approve(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('iso_week') isoWeek: string,
    @Body() body: ReviewTimesheetDto,
  ): Promise<TimesheetDto> {
    return TimesheetDto.from(await this.timesheets.approve(userId, isoWeek, body));
  }

  @Post('timesheets/:user_id/:iso_week/reject')
  @Idempotent()
  @HttpCode(200)
  @RequirePermission(Permission.DecideLeaves)
  @ApiParam(WEEK_PARAM)
  @ApiOperation({
    summary: "Reject a week's submitted or approved entries (roles 1-3), with a note saying why",
  })
  @ApiOkResponse({ type: TimesheetDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(NOT_READY)
  async reject(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('iso_week') isoWeek: string,
    @Body() body: ReviewTimesheetDto,
  ): Promise<TimesheetDto> {
    return TimesheetDto.from(await this.timesheets.reject(userId, isoWeek, body));
  }

  @Get('timesheet-lock')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "The company's timesheet lock (locked_until null: none)" })
  @ApiOkResponse({ type: TimesheetLockDto })
  async lock(): Promise<TimesheetLockDto> {
    return TimesheetLockDto.from(await this.timesheets.lock());
  }

  @Put('timesheet-lock')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Lock time up to a day, or lift the lock with null (roles 1-2)',
    description:
      'Any write (create, update, delete, submit, approve, reject, import) of an entry dated on or before ' +
      'locked_until is then 409 TimesheetLocked, whichever route makes it. Moving the lock waits for ' +
      'the writes in flight.',
  })
  @ApiOkResponse({ type: TimesheetLockDto })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: 'Roles 3-6' })
  async putLock(@Body() body: PutTimesheetLockDto): Promise<TimesheetLockDto> {
    return TimesheetLockDto.from(await this.timesheets.putLock(body));
  }
}
