import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOnly, IsQueryIntegerInRange, MayBeAbsent } from '@platform/contracts';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { FORECAST_GRANULARITIES, MAX_FORECAST_PERIODS, type ForecastGranularity } from '../forecast-periods';
import { FORECAST_GROUPINGS, type ForecastGrouping } from '../forecast.repository';

export const MAX_FORECAST_GROUPS_PER_PAGE = 100;

const Granularity = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      enum: FORECAST_GRANULARITIES,
      default: 'month',
      example: 'month',
      description: 'week: ISO weeks, Monday to Sunday; month: calendar months',
    }),
    MayBeAbsent(),
    IsIn(FORECAST_GRANULARITIES, { message: 'granularity must be week or month' }),
  );

const IncludeTentative = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      enum: ['true', 'false'],
      default: 'false',
      description:
        'true: tentative planned hours count in ETC, EAC, the cumulative figures and the exhaustion day ' +
        '(they are shown apart either way)',
    }),
    MayBeAbsent(),
    IsIn(['true', 'false'], { message: 'include_tentative must be true or false' }),
  );

const Day = (example: string, description: string): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ format: 'date', example, description }), MayBeAbsent(), IsDateOnly());

const RANGE_RULES = `from ≤ to, at most ${MAX_FORECAST_PERIODS} periods (else 400 naming the field)`;

/** `GET /v1/projects/{project_id}/forecast`. */
export class ProjectForecastQueryDto {
  @Granularity()
  granularity?: ForecastGranularity;

  @Day(
    '2026-01-01',
    "First day of the series, widened to its period's start. Default: the period of the earliest of " +
      `the first approved entry, the project's start and today. ${RANGE_RULES}`,
  )
  from?: string;

  @Day(
    '2027-06-30',
    "Last day of the series, widened to its period's end. Default: the period of the latest of the " +
      "last planned day (confirmed or tentative), the project's end and today",
  )
  to?: string;

  @IncludeTentative()
  include_tentative?: 'true' | 'false';
}

/** `GET /v1/reports/forecast`. */
export class ForecastReportQueryDto {
  @ApiProperty({
    enum: FORECAST_GROUPINGS,
    example: 'client',
    description:
      "client, project or pm (the project's manager; projects without one form the last group, pm_id null)",
  })
  @IsIn(FORECAST_GROUPINGS, { message: 'group_by must be client, project or pm' })
  group_by!: ForecastGrouping;

  @Granularity()
  granularity?: ForecastGranularity;

  @Day('2026-01-01', `First day of the series (default: January 1st of this year). ${RANGE_RULES}`)
  from?: string;

  @Day('2026-12-31', 'Last day of the series (default: December 31st of this year)')
  to?: string;

  @IncludeTentative()
  include_tentative?: 'true' | 'false';

  @ApiPropertyOptional({
    // The example is the route's (@ApiFiltersExample).
    description:
      "URL-encoded JSON object narrowing the company's projects: client_id, pm_id, status, archived, " +
      'project_ids; each value a scalar or an array (any of)',
  })
  @MayBeAbsent()
  @IsString({ message: 'filters must be a URL-encoded JSON object' })
  @MaxLength(4000, { message: 'filters must be at most 4000 characters' })
  filters?: string;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page (same group_by)' })
  @MayBeAbsent()
  @IsString({ message: 'cursor must be the next_cursor of a previous answer' })
  @MaxLength(1000, { message: 'cursor must be the next_cursor of a previous answer' })
  cursor?: string;

  @ApiPropertyOptional({
    default: 20,
    example: 20,
    description: `Groups per page, 1 to ${MAX_FORECAST_GROUPS_PER_PAGE}`,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_FORECAST_GROUPS_PER_PAGE)
  limit?: number;
}
