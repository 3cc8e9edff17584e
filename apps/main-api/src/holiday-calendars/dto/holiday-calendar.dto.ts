import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  API_ROW_VERSION,
  IsDateOnly,
  IsQueryIntegerInRange,
  MayBeAbsent,
  MayBeAbsentOrNull,
} from '@platform/contracts';
import { IsNumber, IsString, Length, Matches, Max, Min } from 'class-validator';
import type { HolidayCalendar } from '../holiday-calendar.entity';
import { HOLIDAY_SOURCES, type Holiday, type HolidaySource } from '../holiday.entity';

export class CreateHolidayCalendarDto {
  @ApiProperty({ example: 'France', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name!: string;

  @ApiPropertyOptional({
    example: 'FR',
    nullable: true,
    description:
      'ISO 3166-1 alpha-2 country whose public holidays an import reads; null for company days only',
  })
  @MayBeAbsentOrNull()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code in capitals (FR, DE, US)' })
  country?: string | null;

  @ApiPropertyOptional({
    example: 'BY',
    nullable: true,
    description: "A region of the country the dataset knows (DE's BY is Bavaria); needs country",
  })
  @MayBeAbsentOrNull()
  @Matches(/^[A-Z0-9]{1,10}$/, {
    message: 'region must be the dataset’s region code (1 to 10 capitals or digits)',
  })
  region?: string | null;
}

export class UpdateHolidayCalendarDto extends PartialType(CreateHolidayCalendarDto, {
  skipNullProperties: false,
}) {}

export class HolidayCalendarDto {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty(API_ROW_VERSION) version!: number;
  @ApiProperty({ example: 'France' }) name!: string;
  @ApiProperty({ type: String, example: 'FR', nullable: true }) country!: string | null;
  @ApiProperty({ type: String, example: null, nullable: true }) region!: string | null;

  static from(calendar: HolidayCalendar): HolidayCalendarDto {
    return {
      id: calendar.id,
      version: calendar.version,
      name: calendar.name,
      country: calendar.country,
      region: calendar.region,
    };
  }
}

export class CreateHolidayDto {
  @ApiProperty({
    example: '2027-12-25',
    description: 'The day (YYYY-MM-DD); one holiday per calendar and day',
  })
  @IsDateOnly()
  date!: string;

  @ApiProperty({ example: 'Christmas Day', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({
    example: 4,
    nullable: true,
    description:
      'Hours off that day (0.25 to 24, two decimals: a half day is 4); null or absent: the whole working day',
  })
  @MayBeAbsentOrNull()
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false })
  @Min(0.25)
  @Max(24)
  hours_off?: number | null;
}

export class UpdateHolidayDto extends PartialType(CreateHolidayDto, { skipNullProperties: false }) {}

export class HolidaysQueryDto {
  @ApiPropertyOptional({ example: '2027-01-01', description: 'First day (YYYY-MM-DD), included' })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({ example: '2027-12-31', description: 'Last day (YYYY-MM-DD), included' })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;
}

export class ImportHolidaysQueryDto {
  @ApiProperty({ example: 2027, description: 'The year whose public holidays are imported (1970 to 2200)' })
  @IsQueryIntegerInRange(1970, 2200)
  year!: number;
}

export class HolidayDto {
  @ApiProperty({ example: 41 }) id!: number;
  @ApiProperty(API_ROW_VERSION) version!: number;
  @ApiProperty({ example: 3 }) calendar_id!: number;
  @ApiProperty({ example: '2027-12-25' }) date!: string;
  @ApiProperty({ example: 'Christmas Day' }) name!: string;
  @ApiProperty({ type: Number, example: null, nullable: true, description: 'null: the whole working day' })
  hours_off!: number | null;
  @ApiProperty({
    enum: HOLIDAY_SOURCES,
    description: 'import: from the dataset (a new import may rename it); manual: yours, never replaced',
  })
  source!: HolidaySource;

  static from(holiday: Holiday): HolidayDto {
    return {
      id: holiday.id,
      version: holiday.version,
      calendar_id: holiday.calendarId,
      date: holiday.date,
      name: holiday.name,
      hours_off: holiday.hoursOff === null ? null : Number(holiday.hoursOff),
      source: holiday.source,
    };
  }
}

export class HolidayImportDto {
  @ApiProperty({ example: 2027 }) year!: number;
  @ApiProperty({ example: 11, description: 'Holidays added' }) created!: number;
  @ApiProperty({ example: 0, description: 'Imported holidays renamed as the dataset now names them' })
  updated!: number;
  @ApiProperty({
    example: 0,
    description: "Days already holding a holiday (yours, or the dataset's as it is)",
  })
  unchanged!: number;
  @ApiProperty({ type: [HolidayDto], description: "The calendar's holidays of that year, by date" })
  holidays!: HolidayDto[];
}
