import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDateOnly,
  IsEntityIdList,
  IsQueryIntegerInRange,
  MAX_IDS_PER_LOOKUP,
  MayBeAbsent,
} from '@platform/contracts';
import { IsIn, IsString, MaxLength } from 'class-validator';
import {
  MAX_TIME_REPORT_DAYS,
  TIME_REPORT_GRANULARITIES,
  type TimeReportGranularity,
} from '../time-report-periods';
import { TIME_REPORT_GROUPINGS, type TimeReportGrouping } from '../time-report-groups';

export const MAX_TIME_REPORT_GROUPS_PER_PAGE = 200;
export const DEFAULT_TIME_REPORT_GROUPS_PER_PAGE = 50;

/** `GET /v1/reports/time`. */
export class TimeReportQueryDto {
  @ApiPropertyOptional({
    enum: TIME_REPORT_GROUPINGS,
    default: 'user,project',
    example: 'user,project',
    description: 'One row per person (user), per project, or per person and project (user,project)',
  })
  @MayBeAbsent()
  @IsIn(TIME_REPORT_GROUPINGS, { message: 'group_by must be user, project or user,project' })
  group_by?: TimeReportGrouping;

  @ApiPropertyOptional({
    enum: TIME_REPORT_GRANULARITIES,
    default: 'week',
    example: 'week',
    description: 'day; week: ISO weeks, Monday to Sunday; month: calendar months',
  })
  @MayBeAbsent()
  @IsIn(TIME_REPORT_GRANULARITIES, { message: 'granularity must be day, week or month' })
  granularity?: TimeReportGranularity;

  @ApiProperty({ format: 'date', example: '2026-03-01', description: 'First day of the report, included' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({
    format: 'date',
    example: '2026-03-31',
    description: `Last day of the report, included: a real day, on or after from, at most ${MAX_TIME_REPORT_DAYS} days in all (else 400 naming the field)`,
  })
  @IsDateOnly()
  to!: string;

  @ApiPropertyOptional({
    enum: ['planned'],
    description:
      "planned: each period also has the planner's planned_hours, tentative_hours and variance_hours " +
      '(one call to the planner; 503 when it is unreachable). Absent: logged time only, no planner call',
  })
  @MayBeAbsent()
  @IsIn(['planned'], { message: 'compare must be planned (or absent)' })
  compare?: 'planned';

  @ApiPropertyOptional({
    example: '12,14',
    description: `Only these people's time and plan (comma-separated user ids, at most ${MAX_IDS_PER_LOOKUP}). Roles 4-5: only their own id counts`,
  })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({
    example: '88',
    description: `Only these projects' time and plan (comma-separated project ids, at most ${MAX_IDS_PER_LOOKUP})`,
  })
  @MayBeAbsent()
  @IsEntityIdList()
  project_ids?: string;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page (same group_by)' })
  @MayBeAbsent()
  @IsString({ message: 'cursor must be the next_cursor of a previous answer' })
  @MaxLength(1000, { message: 'cursor must be the next_cursor of a previous answer' })
  cursor?: string;

  @ApiPropertyOptional({
    default: DEFAULT_TIME_REPORT_GROUPS_PER_PAGE,
    example: DEFAULT_TIME_REPORT_GROUPS_PER_PAGE,
    description: `Rows (groups) per page, 1 to ${MAX_TIME_REPORT_GROUPS_PER_PAGE}`,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_TIME_REPORT_GROUPS_PER_PAGE)
  limit?: number;
}
