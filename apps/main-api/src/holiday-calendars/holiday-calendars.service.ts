import { Injectable } from '@nestjs/common';
import type { ListAnswer, ListQueryDto } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { BusinessRuleError, ResourceNotFoundError } from '../errors/main-api.errors';
import {
  HolidayCalendarDto,
  HolidayDto,
  type CreateHolidayCalendarDto,
  type CreateHolidayDto,
  type HolidayImportDto,
  type HolidaysQueryDto,
  type UpdateHolidayCalendarDto,
  type UpdateHolidayDto,
} from './dto/holiday-calendar.dto';
import type { HolidayCalendar } from './holiday-calendar.entity';
import { HolidayCalendarsRepository, HolidaysRepository } from './holiday-calendars.repository';
import { holidayDataset } from './holiday-dataset';
import type { Holiday } from './holiday.entity';

/**
 * Holiday calendars (issue 38): their own days, and a country's public holidays imported for a
 * year from the dataset. A calendar's country and region are checked against the dataset when set,
 * so an import never fails on a code it does not know.
 */
@Injectable()
export class HolidayCalendarsService {
  constructor(
    private readonly calendars: HolidayCalendarsRepository,
    private readonly holidays: HolidaysRepository,
  ) {}

  create(body: CreateHolidayCalendarDto): Promise<HolidayCalendar> {
    const place = checkedPlace(body.country ?? null, body.region ?? null);
    return this.calendars.create({ name: body.name, ...place });
  }

  list(query: ListQueryDto): Promise<ListAnswer<HolidayCalendarDto>> {
    return this.calendars.list(query, (calendar) => HolidayCalendarDto.from(calendar));
  }

  get(id: number): Promise<HolidayCalendar> {
    return this.calendars.get(id);
  }

  async update(id: number, body: UpdateHolidayCalendarDto): Promise<HolidayCalendar> {
    const calendar = await this.calendars.get(id);
    const country = body.country === undefined ? calendar.country : body.country;
    // Another country's regions are not this one's: a new country clears the region unless one is sent.
    const region =
      body.region !== undefined ? body.region : country === calendar.country ? calendar.region : null;
    const place = checkedPlace(country, region);
    return this.calendars.save({
      ...calendar,
      ...(body.name !== undefined && { name: body.name }),
      ...place,
    });
  }

  async remove(id: number): Promise<HolidayCalendar> {
    return this.calendars.softRemove(await this.calendars.get(id));
  }

  async holidaysOf(calendarId: number, query: HolidaysQueryDto): Promise<HolidayDto[]> {
    await this.calendars.get(calendarId);
    if (query.from && query.to && query.from > query.to) {
      throw new RequestValidationError([
        {
          field: 'to',
          validation: 'range',
          message: `to (${query.to}) must be on or after from (${query.from})`,
        },
      ]);
    }
    return (await this.holidays.ofCalendar(calendarId, query)).map((holiday) => HolidayDto.from(holiday));
  }

  async addHoliday(calendarId: number, body: CreateHolidayDto): Promise<Holiday> {
    await this.calendars.get(calendarId);
    return this.holidays.create({
      calendarId,
      date: body.date,
      name: body.name,
      hoursOff: hoursOffColumn(body.hours_off ?? null),
      source: 'manual',
    });
  }

  async holiday(calendarId: number, holidayId: number): Promise<Holiday> {
    await this.calendars.get(calendarId);
    const holiday = await this.holidays.get(holidayId);
    if (holiday.calendarId !== calendarId) {
      throw new ResourceNotFoundError(`Holiday ${holidayId} of calendar ${calendarId}`);
    }
    return holiday;
  }

  /** A holiday changed by hand is the company's own: a later import leaves it as it is. */
  async updateHoliday(calendarId: number, holidayId: number, body: UpdateHolidayDto): Promise<Holiday> {
    const holiday = await this.holiday(calendarId, holidayId);
    return this.holidays.save({
      ...holiday,
      ...(body.date !== undefined && { date: body.date }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.hours_off !== undefined && { hoursOff: hoursOffColumn(body.hours_off) }),
      source: 'manual',
    });
  }

  async removeHoliday(calendarId: number, holidayId: number): Promise<void> {
    await this.holidays.delete(await this.holiday(calendarId, holidayId));
  }

  /** The dataset's public holidays of `year` for the calendar's country (and region). */
  async import(calendarId: number, year: number): Promise<HolidayImportDto> {
    const calendar = await this.calendars.get(calendarId);
    if (!calendar.country) {
      throw new BusinessRuleError(
        `Holiday calendar ${calendarId} has no country to import from: set its country (PATCH) first`,
      );
    }
    const counts = await this.holidays.applyImport(
      calendarId,
      year,
      holidayDataset.publicHolidays(calendar.country, calendar.region, year),
    );
    const holidays = await this.holidays.ofCalendar(calendarId, {
      from: `${year}-01-01`,
      to: `${year}-12-31`,
    });
    return { year, ...counts, holidays: holidays.map((holiday) => HolidayDto.from(holiday)) };
  }
}

/** The country and region as the dataset knows them: a 400 naming the field otherwise. */
function checkedPlace(
  country: string | null,
  region: string | null,
): Pick<HolidayCalendar, 'country' | 'region'> {
  if (country !== null && !holidayDataset.hasCountry(country)) {
    throw new RequestValidationError([
      {
        field: 'country',
        validation: 'dataset',
        message: `country ${country} is not in the holiday dataset`,
      },
    ]);
  }
  if (region !== null) {
    if (country === null) {
      throw new RequestValidationError([
        { field: 'region', validation: 'dataset', message: 'region needs a country' },
      ]);
    }
    if (!holidayDataset.hasRegion(country, region)) {
      throw new RequestValidationError([
        {
          field: 'region',
          validation: 'dataset',
          message: `region ${region} is not a region of ${country} in the holiday dataset`,
        },
      ]);
    }
  }
  return { country, region };
}

function hoursOffColumn(hours: number | null): string | null {
  return hours === null ? null : hours.toFixed(2);
}
