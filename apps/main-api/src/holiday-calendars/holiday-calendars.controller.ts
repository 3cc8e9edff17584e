import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
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
import { ApiFiltersExample, ApiPaginatedResponse, ListQueryDto, type ListAnswer } from '@platform/contracts';
import { ConditionalRead, ConditionalResource, ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreateHolidayCalendarDto,
  CreateHolidayDto,
  HolidayCalendarDto,
  HolidayDto,
  HolidayImportDto,
  HolidaysQueryDto,
  ImportHolidaysQueryDto,
  UpdateHolidayCalendarDto,
  UpdateHolidayDto,
} from './dto/holiday-calendar.dto';
import { HolidayCalendar } from './holiday-calendar.entity';
import { HolidayCalendarsService } from './holiday-calendars.service';
import { Holiday } from './holiday.entity';

/** A 412's current holiday: as its read answers it. */
const currentHoliday = (controller: HolidayCalendarsController, params: Record<string, string>) =>
  controller.holiday(Number(params.id), Number(params.holiday_id));

@ApiTags('holiday calendars')
@Controller('holiday-calendars')
export class HolidayCalendarsController {
  constructor(private readonly calendars: HolidayCalendarsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Create a holiday calendar (roles 1-2)',
    description: 'country (and region) name the public holidays an import reads; checked against the dataset',
  })
  @ApiCreatedResponse({ type: HolidayCalendarDto })
  async create(@Body() body: CreateHolidayCalendarDto): Promise<HolidayCalendarDto> {
    return HolidayCalendarDto.from(await this.calendars.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List holiday calendars; filters: name (contains), country; sort: name' })
  @ApiFiltersExample({ country: 'FR' })
  @ApiPaginatedResponse(HolidayCalendarDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<HolidayCalendarDto>> {
    return this.calendars.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'One holiday calendar' })
  @ApiOkResponse({ type: HolidayCalendarDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<HolidayCalendarDto> {
    return HolidayCalendarDto.from(await this.calendars.get(id));
  }

  @Patch(':id')
  @ConditionalResource(HolidayCalendar)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary:
      'Change a holiday calendar (only the fields sent; a new country clears the region unless one is sent)',
  })
  @ApiOkResponse({ type: HolidayCalendarDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateHolidayCalendarDto,
  ): Promise<HolidayCalendarDto> {
    return HolidayCalendarDto.from(await this.calendars.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(HolidayCalendar)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a holiday calendar (soft delete; answers the deleted calendar)' })
  @ApiOkResponse({ type: HolidayCalendarDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<HolidayCalendarDto> {
    return HolidayCalendarDto.from(await this.calendars.remove(id));
  }

  @Get(':id/holidays')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "The calendar's holidays in a window (both ends included), by date" })
  @ApiOkResponse({ type: [HolidayDto] })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  holidays(@Param('id', ParseIdPipe) id: number, @Query() query: HolidaysQueryDto): Promise<HolidayDto[]> {
    return this.calendars.holidaysOf(id, query);
  }

  @Post(':id/holidays')
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Add a holiday (one per calendar and day)' })
  @ApiCreatedResponse({ type: HolidayDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiUnprocessableEntityResponse({ type: MainApiErrorBodyDto, description: 'The day already has a holiday' })
  async addHoliday(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CreateHolidayDto,
  ): Promise<HolidayDto> {
    return HolidayDto.from(await this.calendars.addHoliday(id, body));
  }

  @Get(':id/holidays/:holiday_id')
  @ConditionalRead()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'One holiday of the calendar' })
  @ApiOkResponse({ type: HolidayDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async holiday(
    @Param('id', ParseIdPipe) id: number,
    @Param('holiday_id', ParseIdPipe) holidayId: number,
  ): Promise<HolidayDto> {
    return HolidayDto.from(await this.calendars.holiday(id, holidayId));
  }

  @Patch(':id/holidays/:holiday_id')
  @ConditionalResource(Holiday, { param: 'holiday_id', read: currentHoliday })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Change a holiday (only the fields sent); it becomes yours, and an import no longer replaces it',
  })
  @ApiOkResponse({ type: HolidayDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async updateHoliday(
    @Param('id', ParseIdPipe) id: number,
    @Param('holiday_id', ParseIdPipe) holidayId: number,
    @Body() body: UpdateHolidayDto,
  ): Promise<HolidayDto> {
    return HolidayDto.from(await this.calendars.updateHoliday(id, holidayId, body));
  }

  @Delete(':id/holidays/:holiday_id')
  @HttpCode(204)
  @ConditionalResource(Holiday, { param: 'holiday_id', read: currentHoliday })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Remove a holiday' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async removeHoliday(
    @Param('id', ParseIdPipe) id: number,
    @Param('holiday_id', ParseIdPipe) holidayId: number,
  ): Promise<void> {
    await this.calendars.removeHoliday(id, holidayId);
  }

  @Post(':id/import')
  @Idempotent()
  @HttpCode(200)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: "Import a year of the calendar's country's public holidays (the date-holidays dataset)",
    description:
      'Adds the days the calendar has no holiday on; renames imported ones the dataset now names otherwise; ' +
      'keeps yours. Run again, it changes nothing. A holiday the dataset starts after midnight is a half day (4 hours).',
  })
  @ApiOkResponse({ type: HolidayImportDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiUnprocessableEntityResponse({ type: MainApiErrorBodyDto, description: 'The calendar has no country' })
  import(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: ImportHolidaysQueryDto,
  ): Promise<HolidayImportDto> {
    return this.calendars.import(id, query.year);
  }
}
