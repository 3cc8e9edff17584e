import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDateOnly,
  IsEntityIdList,
  IsQueryIntegerInRange,
  MAX_ENTITY_ID,
  MayBeAbsent,
} from '@platform/contracts';
import { Transform } from 'class-transformer';
import { IsIn, IsNumber, Max, Min } from 'class-validator';
import { ScenarioQueryDto } from '../../scenarios/dto/scenario-query.dto';
import type { Granularity } from '../availability-series';

export const GRANULARITIES: readonly Granularity[] = ['day', 'week', 'month'];
/** The most people one availability read answers. */
export const MAX_AVAILABILITY_PEOPLE = 200;
/** The most days one availability read or search spans: a leap year. */
export const MAX_AVAILABILITY_DAYS = 366;

const BOOLEAN_TEXT = ['true', 'false'];

/** Who and when, shared by the read and the search. */
class AvailabilityWindowDto extends ScenarioQueryDto {
  @ApiProperty({ example: '2027-03-01', description: 'First day (YYYY-MM-DD)' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({
    example: '2027-03-31',
    description: `Last day (YYYY-MM-DD), included; at most ${MAX_AVAILABILITY_DAYS} days from \`from\``,
  })
  @IsDateOnly()
  to!: string;

  @ApiPropertyOptional({
    enum: BOOLEAN_TEXT,
    description: 'true: tentative bookings count as booked in `available` and `utilization` (default false)',
  })
  @MayBeAbsent()
  @IsIn(BOOLEAN_TEXT, { message: 'include_tentative must be true or false' })
  include_tentative?: 'true' | 'false';
}

/** `GET /v2/availability`: people (by ids, team or position), a window, and how to cut it. */
export class AvailabilityQueryDto extends AvailabilityWindowDto {
  @ApiPropertyOptional({
    example: '12,13',
    description: `These people (comma-separated ids, at most ${MAX_AVAILABILITY_PEOPLE}); or team_id, or position_id`,
  })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({ example: 4, description: "The team's current members" })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_ENTITY_ID)
  team_id?: number;

  @ApiPropertyOptional({ example: 3, description: 'The current people in this position' })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_ENTITY_ID)
  position_id?: number;

  @ApiPropertyOptional({
    enum: GRANULARITIES,
    description:
      'day (default), week (ISO weeks, Monday to Sunday) or month; periods are clipped to the window',
  })
  @MayBeAbsent()
  @IsIn(GRANULARITIES)
  granularity?: Granularity;

  @ApiPropertyOptional({
    enum: BOOLEAN_TEXT,
    description: 'true: each person also gets `days`, what made each day’s figures (default false)',
  })
  @MayBeAbsent()
  @IsIn(BOOLEAN_TEXT, { message: 'explain must be true or false' })
  explain?: 'true' | 'false';
}

/** `GET /v2/availability/search`: who has `hours` free in the window. */
export class AvailabilitySearchQueryDto extends AvailabilityWindowDto {
  @ApiProperty({ example: 20, description: 'Hours free needed in the window (more than 0, at most 8784)' })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value) ? Number(value) : value,
  )
  @IsNumber({ maxDecimalPlaces: 2 }, { message: 'hours must be a number with at most 2 decimals' })
  @Min(0.01)
  @Max(8784)
  hours!: number;

  @ApiPropertyOptional({ example: 3, description: 'Only people in this position' })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_ENTITY_ID)
  position_id?: number;

  @ApiPropertyOptional({
    example: '5,9',
    description: 'User labels wanted: people carrying more of them rank first (not a filter)',
  })
  @MayBeAbsent()
  @IsEntityIdList()
  label_ids?: string;

  @ApiPropertyOptional({ example: 20, description: 'At most this many people (1 to 100, default 20)' })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, 100)
  limit: number = 20;
}

/** A period's (or the window's) hours. */
export class AvailabilityFiguresDto {
  @ApiProperty({ example: 40, description: 'Hours of the schedule in force, day by day' })
  working!: number;

  @ApiProperty({ example: 8, description: 'Of working, what holidays take' })
  holidays!: number;

  @ApiProperty({ example: 4, description: 'Of what holidays leave, what approved leaves take' })
  time_off!: number;

  @ApiProperty({ example: 28, description: 'working − holidays − time_off' })
  capacity!: number;

  @ApiProperty({ example: 16, description: 'Hours of confirmed bookings' })
  confirmed!: number;

  @ApiProperty({ example: 6, description: 'Hours of tentative bookings' })
  tentative!: number;

  @ApiProperty({
    example: 12,
    description: 'capacity − confirmed (− tentative with include_tentative); negative when overbooked',
  })
  available!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.5714,
    description: 'booked ÷ capacity (4 decimals); null without capacity. A ratio: not summed over periods',
  })
  utilization!: number | null;
}

export class AvailabilityPeriodDto extends AvailabilityFiguresDto {
  @ApiProperty({ example: '2027-03-01' }) from!: string;
  @ApiProperty({ example: '2027-03-07' }) to!: string;
}

export class ExplainedLeaveDto {
  @ApiProperty({ type: Number, nullable: true, example: 81, description: "main-api's leave id" })
  id!: number | null;

  @ApiProperty({ example: 4, description: 'Hours it takes that day' })
  hours!: number;
}

export class ExplainedBookingDto {
  @ApiProperty({ example: '0b8e…', format: 'uuid' }) allocation_id!: string;
  @ApiProperty({ example: 7 }) project_id!: number;
  @ApiProperty({ enum: ['confirmed', 'tentative'] }) status!: string;
  @ApiProperty({ example: 6 }) hours!: number;
}

/** What made one day's figures. */
export class ExplainedDayDto extends AvailabilityFiguresDto {
  @ApiProperty({ example: '2027-03-02' }) date!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2027-02-01',
    description: 'First day of the working week in force (null: the only week, for all days)',
  })
  schedule_from!: string | null;

  @ApiProperty({
    type: [String],
    example: ['Shrove Tuesday'],
    description: "Holidays of the person's calendar",
  })
  holiday_names!: string[];

  @ApiProperty({ type: [ExplainedLeaveDto] }) leaves!: ExplainedLeaveDto[];
  @ApiProperty({ type: [ExplainedBookingDto] }) allocations!: ExplainedBookingDto[];
}

export class PersonAvailabilityDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: 'Ada' }) first_name!: string;
  @ApiProperty({ example: 'Lovelace' }) last_name!: string;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) position_id!: number | null;
  @ApiProperty({ example: 'Europe/Paris', description: 'The zone partial leaves are read in' })
  time_zone!: string;

  @ApiProperty({ type: AvailabilityFiguresDto, description: 'The window: the sums of the series' })
  totals!: AvailabilityFiguresDto;

  @ApiProperty({ type: [AvailabilityPeriodDto], description: 'One per period; each the sum of its days' })
  series!: AvailabilityPeriodDto[];

  @ApiPropertyOptional({ type: [ExplainedDayDto], description: 'With explain=true: every day of the window' })
  days?: ExplainedDayDto[];
}

export class AvailabilityDto {
  @ApiProperty({ example: '2027-03-01' }) from!: string;
  @ApiProperty({ example: '2027-03-31' }) to!: string;
  @ApiProperty({ enum: GRANULARITIES }) granularity!: Granularity;
  @ApiProperty() include_tentative!: boolean;
  @ApiProperty({ type: [PersonAvailabilityDto], description: 'By last name, first name, id' })
  people!: PersonAvailabilityDto[];
}

export class FirstFitDto {
  @ApiProperty({ example: '2027-03-02', description: 'The first day with free hours' })
  from!: string;

  @ApiProperty({ example: '2027-03-05', description: 'The day the free hours since `from` reach `hours`' })
  to!: string;
}

export class SearchReasonsDto {
  @ApiProperty({ example: 31.5, description: 'Free hours in the window (days over capacity count 0)' })
  hours_free!: number;

  @ApiProperty({ type: [Number], example: [5], description: 'The label_ids the person carries' })
  labels_matched!: number[];

  @ApiProperty({ description: 'In the position asked for (true when none was asked for)' })
  position_matched!: boolean;
}

export class AvailabilityCandidateDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: 'Ada' }) first_name!: string;
  @ApiProperty({ example: 'Lovelace' }) last_name!: string;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) position_id!: number | null;
  @ApiProperty({ type: FirstFitDto }) first_fit!: FirstFitDto;
  @ApiProperty({ type: SearchReasonsDto }) reasons!: SearchReasonsDto;
  @ApiProperty({
    type: AvailabilityFiguresDto,
    description: 'The window’s figures, as the availability read',
  })
  totals!: AvailabilityFiguresDto;
}

export class AvailabilitySearchDto {
  @ApiProperty({
    type: [AvailabilityCandidateDto],
    description:
      'People with at least `hours` free, best first: more labels matched, then the earliest first_fit end, ' +
      'then more hours free, then id',
  })
  people!: AvailabilityCandidateDto[];

  @ApiProperty({
    example: 14,
    description: 'People weighed (the position’s, or the company’s current people)',
  })
  considered!: number;

  @ApiProperty({
    description: 'true when more than 500 people could be weighed: only the first 500 by id were',
  })
  truncated!: boolean;
}
