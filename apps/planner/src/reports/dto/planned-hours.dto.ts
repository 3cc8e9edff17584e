import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOnly, IsEntityIdList, MAX_IDS_PER_LOOKUP, MayBeAbsent } from '@platform/contracts';
import { IsIn } from 'class-validator';
import type { Granularity } from '../../availability/availability-series';
import { GRANULARITIES } from '../../availability/dto/availability.dto';

/** The most days one planned-hours read spans: about ten years, a forecast's horizon. */
export const MAX_PLANNED_HOURS_DAYS = 3700;

/** `GET /v2/reports/planned-hours`: which projects, when, and how to cut it. */
export class PlannedHoursQueryDto {
  @ApiProperty({
    example: '7,9',
    description: `The projects (main-api ids), comma-separated, 1 to ${MAX_IDS_PER_LOOKUP} of them`,
  })
  @IsEntityIdList()
  project_ids!: string;

  @ApiProperty({ example: '2027-03-01', description: 'First day (YYYY-MM-DD), included' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({
    example: '2027-06-30',
    description: `Last day (YYYY-MM-DD), included: on or after from, at most ${MAX_PLANNED_HOURS_DAYS} days in all`,
  })
  @IsDateOnly()
  to!: string;

  @ApiPropertyOptional({
    enum: GRANULARITIES,
    default: 'day',
    description:
      'day (default); week: ISO weeks, period_start their Monday; month: period_start its 1st. A period ' +
      'cut by the window still starts on its Monday or 1st, and sums only its days inside the window',
  })
  @MayBeAbsent()
  @IsIn(GRANULARITIES)
  granularity: Granularity = 'day';
}

/** The hours a project books one person or placeholder in one period. */
export class PlannedHoursRowDto {
  @ApiProperty({ type: 'integer', example: 7 }) project_id!: number;

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

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description: "The placeholder's position (main-api); null for a person or a placeholder without one",
  })
  position_id!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description:
      "The placeholder's position category (main-api); null for a person or a placeholder without one",
  })
  category_id!: number | null;

  @ApiProperty({
    format: 'date',
    example: '2027-03-01',
    description: 'The first day of the period: the day, the Monday of the week, or the 1st of the month',
  })
  period_start!: string;

  @ApiProperty({ example: 24, description: 'Hours of confirmed days in the period and the window' })
  confirmed_hours!: number;

  @ApiProperty({ example: 0, description: 'Hours of tentative days in the period and the window' })
  tentative_hours!: number;
}

/** The answer of `GET /v2/reports/planned-hours`. */
export class PlannedHoursDto {
  @ApiProperty({ format: 'date', example: '2027-03-01' }) from!: string;
  @ApiProperty({ format: 'date', example: '2027-06-30' }) to!: string;
  @ApiProperty({ enum: GRANULARITIES }) granularity!: Granularity;

  @ApiProperty({
    type: [PlannedHoursRowDto],
    description:
      'One row per project, person or placeholder, and period with hours booked, by project_id, ' +
      'period_start, user_id (placeholders last), placeholder_id',
  })
  rows!: PlannedHoursRowDto[];
}
