import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  API_ROW_VERSION,
  isCalendarDate,
  IsDateOnly,
  IsDayOfWeek,
  IsEntityIdList,
  IsHoursOfDay,
  IsTimeOfDay,
  MayBeAbsent,
  TIME_OF_DAY,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateBy, ValidateNested } from 'class-validator';

const DAYS_OF_WEEK = [0, 1, 2, 3, 4, 5, 6];

export class WorkingTimeEntryInputDto {
  @ApiProperty({
    type: 'integer',
    enum: DAYS_OF_WEEK,
    example: 1,
    description: '0 = Sunday … 6 = Saturday; each day at most once',
  })
  @IsDayOfWeek()
  day_of_week!: number;

  @ApiProperty({ example: 8, minimum: 0, maximum: 24 })
  @IsHoursOfDay()
  daily_hours!: number;

  @ApiProperty({ example: '09:00:00', pattern: TIME_OF_DAY.source, description: 'HH:mm:ss, before end_at' })
  @IsTimeOfDay()
  start_at!: string;

  @ApiProperty({ example: '18:00:00', pattern: TIME_OF_DAY.source, description: 'HH:mm:ss' })
  @IsTimeOfDay()
  end_at!: string;

  @ApiPropertyOptional({ example: 1, minimum: 0, maximum: 24, description: 'Hours of break; default 0' })
  @MayBeAbsent()
  @IsHoursOfDay()
  break_time?: number;
}

/** `PUT /working-time/users/{user_id}`: the user's whole week, replacing the previous one. */
export class ReplaceWorkingWeekDto {
  @ApiProperty({ type: [WorkingTimeEntryInputDto], maxItems: 7, description: 'The whole week; [] clears it' })
  @IsArray()
  @ArrayMaxSize(7)
  @ValidateNested({ each: true })
  @Type(() => WorkingTimeEntryInputDto)
  entries!: WorkingTimeEntryInputDto[];
}

/** `GET /working-time/company/with/users?user_ids=1,2`: the planner's batch look-up. */
export class CompanyWeeksQueryDto {
  @ApiPropertyOptional({ example: '1,2', description: 'Comma-separated user ids (at most 500); default all' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;
}

/** docs/spec/interfaces.md "Working time entry"; read straight into these fields (WorkingTimeService). */
export class WorkingTimeEntryDto {
  @ApiProperty({ example: 8, minimum: 0, maximum: 24, description: 'Working hours that day' })
  daily_hours!: number;

  @ApiProperty({ type: 'integer', enum: DAYS_OF_WEEK, example: 1, description: '0 = Sunday … 6 = Saturday' })
  day_of_week!: number;

  @ApiProperty({ example: '09:00:00', pattern: TIME_OF_DAY.source, description: 'HH:mm:ss' })
  start_at!: string;

  @ApiProperty({ example: '18:00:00', pattern: TIME_OF_DAY.source, description: 'HH:mm:ss' })
  end_at!: string;

  @ApiProperty({ type: 'integer', example: 12 })
  user_id!: number;

  @ApiProperty({ example: 1, minimum: 0, maximum: 24, description: 'Hours of break' })
  break_time!: number;
}

/** A day that exists, `YYYY-MM-DD` (not 2027-02-30): a schedule's first day, or the day asked about. */
const IsCalendarDay = (): PropertyDecorator =>
  applyDecorators(
    IsDateOnly(),
    ValidateBy({
      name: 'isCalendarDay',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isCalendarDate(value),
        defaultMessage: (args) => `${args?.property ?? 'value'} must be a day of the calendar, YYYY-MM-DD`,
      },
    }),
  );

/** `POST /v1/working-time/users/{user_id}/schedules`: a working week from a day on. */
export class CreateWorkingScheduleDto extends ReplaceWorkingWeekDto {
  @ApiProperty({
    example: '2027-03-01',
    description: "First day this week is in force (until the next schedule's first day); one per day",
  })
  @IsCalendarDay()
  effective_from!: string;
}

/** `GET /v1/working-time/users/{user_id}/schedules?at=`. */
export class WorkingSchedulesQueryDto {
  @ApiPropertyOptional({
    example: '2027-03-15',
    description:
      'Only the schedule in force that day (the latest starting on or before it; before the first, the first)',
  })
  @MayBeAbsent()
  @IsCalendarDay()
  at?: string;
}

/** A working week from a day on: what the planner's look-up answers of each schedule. */
export class WorkingScheduleWeekDto {
  @ApiProperty({ example: '2027-03-01', description: "First day it is in force (until the next one's)" })
  effective_from!: string;

  @ApiProperty({ type: [WorkingTimeEntryDto], description: 'Its week, one entry per working day' })
  entries!: WorkingTimeEntryDto[];
}

/** One of a person's schedules, with its row version (its `ETag`, for `If-Match`). */
export class WorkingScheduleDto extends WorkingScheduleWeekDto {
  @ApiProperty(API_ROW_VERSION)
  version!: number;
}
