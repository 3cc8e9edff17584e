import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  IsDateOnly,
  IsEntityId,
  IsEntityIdList,
  IsHoursOfDay,
  IsQueryIntegerInRange,
  MayBeAbsent,
  MayBeAbsentOrNull,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  ALLOCATION_MODES,
  ALLOCATION_STATUSES,
  type AllocationMode,
  type AllocationStatus,
} from '../../allocations/allocation.entity';
import { MAX_ALLOCATED_HOURS } from '../../allocations/dto/allocation.dto';
import { PlannerErrorBodyDto } from '../../errors/planner-error-body.dto';
import { ScenarioQueryDto } from '../../scenarios/dto/scenario-query.dto';
import { CAPACITY_POLICIES, type CapacityPolicy } from '../planner-settings.entity';

/** The most days one allocation spans: a leap year. */
export const MAX_ALLOCATION_DAYS = 366;

export class DayHoursDto {
  @ApiProperty({ example: '2027-01-04', description: 'A day of the allocation (YYYY-MM-DD)' })
  @IsDateOnly()
  date!: string;

  @ApiProperty({ example: 4, description: 'Hours that day: 0 to 24, two decimals' })
  @IsHoursOfDay()
  hours!: number;
}

/** A comma-separated list of 1 to 500 uuids (query parameter). */
const UUID_LIST =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(,[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}){0,499}$/i;

/** The body of `POST /v2/allocations`: books exactly one of a person (`user_id`) or a placeholder. */
export class CreateAllocationV2Dto {
  @ApiPropertyOptional({
    example: 12,
    description:
      'The person booked (a main-api user of your company); exactly one of user_id and placeholder_id',
  })
  @MayBeAbsent()
  @IsEntityId()
  user_id?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'The placeholder booked instead of a person (/v2/placeholders): planned Monday to Friday, no capacity ' +
      'limit, no percent_of_capacity. A change cannot move an allocation between a person and a placeholder',
  })
  @MayBeAbsent()
  @IsUUID('all')
  placeholder_id?: string;

  @ApiProperty({ example: 7, description: 'The project (main-api)' })
  @IsEntityId()
  project_id!: number;

  @ApiProperty({ example: '2027-01-04', description: 'First day (YYYY-MM-DD), included' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({
    example: '2027-01-15',
    description: `Last day (YYYY-MM-DD), included: on or after from, at most ${MAX_ALLOCATION_DAYS} days in all`,
  })
  @IsDateOnly()
  to!: string;

  @ApiPropertyOptional({
    example: 6,
    description:
      'Hours on each day with capacity (exactly one of hours_per_day, total_hours, percent_of_capacity)',
  })
  @MayBeAbsent()
  @Max(24)
  @Min(0.01)
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  hours_per_day?: number;

  @ApiPropertyOptional({
    example: 40,
    description:
      'Hours over the whole range, spread over its days in proportion to each day’s capacity; the days ' +
      'always sum exactly to it (hundredths go to the largest remainders, the earlier day first)',
  })
  @MayBeAbsent()
  @Max(MAX_ALLOCATED_HOURS)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  total_hours?: number;

  @ApiPropertyOptional({
    example: 50,
    description: "A percent of each day's capacity (0.01 to 100); its days follow the person's schedule",
  })
  @MayBeAbsent()
  @Max(100)
  @Min(0.01)
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  percent_of_capacity?: number;

  @ApiPropertyOptional({
    type: [DayHoursDto],
    description: 'Days whose hours are given rather than computed (pinned), in any mode',
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOCATION_DAYS)
  @ValidateNested({ each: true })
  @Type(() => DayHoursDto)
  days?: DayHoursDto[];

  @ApiPropertyOptional({ enum: ALLOCATION_STATUSES, default: 'confirmed' })
  @MayBeAbsent()
  @IsIn(ALLOCATION_STATUSES)
  status?: AllocationStatus;

  @ApiPropertyOptional({ example: 'Kick-off week', maxLength: 2000 })
  @MayBeAbsentOrNull()
  @MaxLength(2000)
  @IsString()
  note?: string | null;

  @ApiPropertyOptional({ default: true })
  @MayBeAbsent()
  @IsBoolean()
  billable?: boolean;

  @ApiPropertyOptional({ example: 31, nullable: true, description: 'The task it is for (main-api), if any' })
  @MayBeAbsentOrNull()
  @IsEntityId()
  task_id?: number | null;

  @ApiPropertyOptional({
    example: 3,
    description:
      "Who made the booking (on a change: who confirms it): with a user's token that user, whatever this says; " +
      "an API client's token must name one to book or confirm",
  })
  @MayBeAbsent()
  @IsEntityId()
  assigned_by_user_id?: number;

  @ApiPropertyOptional({
    enum: CAPACITY_POLICIES,
    description:
      "This write's capacity policy instead of the company's (GET /v2/planning-settings): reject refuses a " +
      'booking that puts a day of the person over capacity (422 OverCapacityError), warn and allow book it',
  })
  @MayBeAbsent()
  @IsIn(CAPACITY_POLICIES)
  capacity_policy?: CapacityPolicy;
}

/** The body of `PATCH /v2/allocations/{id}`: what changes; a unit given replaces the mode. */
export class UpdateAllocationV2Dto extends PartialType(CreateAllocationV2Dto, {
  skipNullProperties: false,
}) {}

/** The body of `POST /v2/allocations/{id}/split`. */
export class SplitAllocationDto {
  @ApiProperty({
    example: '2027-01-11',
    description: 'The first day of the second part: after from, on or before to',
  })
  @IsDateOnly()
  date!: string;

  @ApiPropertyOptional({ enum: CAPACITY_POLICIES })
  @MayBeAbsent()
  @IsIn(CAPACITY_POLICIES)
  capacity_policy?: CapacityPolicy;
}

export const MAX_ALLOCATIONS_PER_PAGE = 500;

/**
 * `GET /v2/allocations`: every allocation overlapping the window, across projects, by first day
 * then id, a cursor page at a time.
 */
export class ListAllocationsV2QueryDto extends ScenarioQueryDto {
  @ApiPropertyOptional({
    example: 100,
    description: `At most this many allocations (1 to ${MAX_ALLOCATIONS_PER_PAGE}, default 100)`,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_ALLOCATIONS_PER_PAGE)
  limit: number = 100;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page' })
  @MayBeAbsent()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;

  @ApiPropertyOptional({ example: '12,14', description: 'Only these people (comma-separated ids)' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({
    example: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11',
    description: 'Only these placeholders (comma-separated ids, at most 500)',
  })
  @MayBeAbsent()
  @Matches(UUID_LIST, { message: 'placeholder_ids must be 1 to 500 comma-separated placeholder ids' })
  placeholder_ids?: string;

  @ApiPropertyOptional({ example: '7', description: 'Only these projects (comma-separated ids)' })
  @MayBeAbsent()
  @IsEntityIdList()
  project_ids?: string;

  @ApiPropertyOptional({ enum: ALLOCATION_STATUSES })
  @MayBeAbsent()
  @IsIn(ALLOCATION_STATUSES)
  status?: AllocationStatus;

  @ApiPropertyOptional({
    example: '2027-01-01',
    description: 'Window start: allocations ending on or after it',
  })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({
    example: '2027-03-31',
    description: 'Window end: allocations starting on or before it',
  })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;

  @ApiPropertyOptional({ enum: ['days'], description: 'days: each allocation with its days' })
  @MayBeAbsent()
  @IsIn(['days'])
  include?: 'days';
}

export class PlannedDayDto {
  @ApiProperty({ example: '2027-01-04' }) date!: string;
  @ApiProperty({ example: 6 }) hours!: number;
  @ApiProperty({ description: 'Given by the caller (days), not computed' }) pinned!: boolean;
}

export class OverAllocatedDayDto {
  @ApiProperty({ example: '2027-01-05' }) date!: string;
  @ApiProperty({ example: 8, description: "The person's capacity that day" }) capacity!: number;
  @ApiProperty({ example: 10, description: 'Hours booked that day, this allocation included' })
  booked!: number;
  @ApiProperty({ example: 2, description: 'booked − capacity' }) over!: number;
}

/** 422 OverCapacityError: the planner's error body and the days over capacity. */
export class OverCapacityErrorBodyDto extends PlannerErrorBodyDto {
  @ApiProperty({ type: [OverAllocatedDayDto] }) over_allocated_days!: OverAllocatedDayDto[];
}

/** An allocation as `/v2` answers it. */
export class AllocationV2Dto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 12,
    description: 'The person booked; null for a placeholder',
  })
  user_id!: number | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: null,
    description: 'The placeholder booked; null for a person',
  })
  placeholder_id!: string | null;
  @ApiProperty({ example: 7 }) project_id!: number;
  @ApiProperty({ example: '2027-01-04' }) from!: string;
  @ApiProperty({ example: '2027-01-15' }) to!: string;
  @ApiProperty({ enum: ALLOCATION_STATUSES }) status!: AllocationStatus;
  @ApiProperty({ enum: ALLOCATION_MODES, description: 'How the days are computed' }) mode!: AllocationMode;
  @ApiProperty({ type: Number, nullable: true, example: null }) hours_per_day!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: null }) percent_of_capacity!: number | null;
  @ApiProperty({ example: 40, description: 'The sum of the days' }) total_hours!: number;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
  @ApiProperty() billable!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) task_id!: number | null;
  @ApiProperty({ example: 3, description: 'Who booked it' }) assigned_by_user_id!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Who confirmed it' })
  confirmed_by_user_id!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) confirmed_at!: string | null;
  @ApiProperty({ example: 1, description: 'The row version: the ETag names it' }) version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiPropertyOptional({
    type: [PlannedDayDto],
    description: 'Every day of the range (include=days on lists)',
  })
  days?: PlannedDayDto[];
  @ApiPropertyOptional({
    type: [OverAllocatedDayDto],
    description: "On writes: the days this allocation books where the person's bookings exceed capacity",
  })
  over_allocated_days?: OverAllocatedDayDto[];
}

/** The answer of a split: both parts. */
export class SplitAllocationAnswerDto {
  @ApiProperty({ type: AllocationV2Dto }) first!: AllocationV2Dto;
  @ApiProperty({ type: AllocationV2Dto }) second!: AllocationV2Dto;
}

export class AllocationV2PageDto {
  @ApiProperty({ type: [AllocationV2Dto] }) data!: AllocationV2Dto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last',
  })
  next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}
