import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDayOfWeek,
  IsEntityIdList,
  IsHoursOfDay,
  IsTimeOfDay,
  MayBeAbsent,
  TIME_OF_DAY,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';

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
