import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ConditionalResource, ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CalendarMembershipDto,
  CreateCalendarMembershipDto,
  TimeZoneDto,
  UserCalendarDto,
} from './dto/user-calendar.dto';
import { UserCalendarMembership } from './user-calendar-membership.entity';
import { UserCalendarsService } from './user-calendars.service';

/** A 412's current membership: the person's calendar, which lists it. */
const currentCalendar = (controller: UserCalendarsController, params: Record<string, string>) =>
  controller.calendar(Number(params.user_id));

@ApiTags('holiday calendars')
@Controller('users/:user_id')
export class UserCalendarsController {
  constructor(private readonly people: UserCalendarsService) {}

  @Get('calendar')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "Where a person's days off come from: their time zone and holiday calendars by date",
  })
  @ApiOkResponse({ type: UserCalendarDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  calendar(@Param('user_id', ParseIdPipe) userId: number): Promise<UserCalendarDto> {
    return this.people.calendarOf(userId);
  }

  @Put('time-zone')
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: "Set the person's time zone (an IANA name; roles 1-2)" })
  @ApiOkResponse({ type: UserCalendarDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  setTimeZone(
    @Param('user_id', ParseIdPipe) userId: number,
    @Body() body: TimeZoneDto,
  ): Promise<UserCalendarDto> {
    return this.people.setTimeZone(userId, body.time_zone);
  }

  @Post('holiday-calendars')
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: "Give the person a holiday calendar from a date on (until their next one's first date)",
  })
  @ApiCreatedResponse({ type: CalendarMembershipDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiUnprocessableEntityResponse({
    type: MainApiErrorBodyDto,
    description: 'A calendar already starts that day',
  })
  join(
    @Param('user_id', ParseIdPipe) userId: number,
    @Body() body: CreateCalendarMembershipDto,
  ): Promise<CalendarMembershipDto> {
    return this.people.join(userId, body);
  }

  @Delete('holiday-calendars/:membership_id')
  @HttpCode(204)
  @ConditionalResource(UserCalendarMembership, { param: 'membership_id', read: currentCalendar })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'End a holiday calendar membership (the previous one then runs on)' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async leave(
    @Param('user_id', ParseIdPipe) userId: number,
    @Param('membership_id', ParseIdPipe) membershipId: number,
  ): Promise<void> {
    await this.people.leave(userId, membershipId);
  }
}
