import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FORECAST_GROUPINGS, type ForecastGrouping } from '../forecast.repository';
import { ForecastPeriodDto, ForecastTotalsDto } from './project-forecast.dto';

/** What a group is: one of the three ids (the one of `group_by`) and its name. */
export class ForecastGroupKeyDto {
  @ApiPropertyOptional({ type: 'integer', example: 7, description: 'With group_by=client' })
  client_id?: number;

  @ApiPropertyOptional({ type: 'integer', example: 88, description: 'With group_by=project' })
  project_id?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 12,
    description: 'With group_by=pm; null for the projects without a manager',
  })
  pm_id?: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Northwind',
    description: "The client's, project's or manager's name; null without one (or once deleted)",
  })
  name!: string | null;
}

/** The forecast of a group of projects: the sum of its projects' forecasts. */
export class ForecastGroupDto {
  @ApiProperty({ enum: FORECAST_GROUPINGS, example: 'client' })
  group_by!: ForecastGrouping;

  @ApiProperty({ type: ForecastGroupKeyDto })
  key!: ForecastGroupKeyDto;

  @ApiProperty({ type: [Number], example: [88, 91], description: "The group's projects, by id" })
  project_ids!: number[];

  @ApiProperty({
    type: ForecastTotalsDto,
    description:
      "Each additive figure is the sum of the projects' totals (GET /v1/projects/{project_id}/forecast); " +
      "burn_ratio is recomputed from the sums; budget_exhausted_on is the earliest of the projects'",
  })
  totals!: ForecastTotalsDto;

  @ApiProperty({ type: [ForecastPeriodDto], description: "The projects' periods, summed per period" })
  periods!: ForecastPeriodDto[];
}

/** `GET /v1/reports/forecast`: a cursor page of groups. */
export class ForecastReportDto {
  @ApiProperty({ type: [ForecastGroupDto], description: 'By key ascending, the null pm last' })
  data!: ForecastGroupDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Send as cursor for the next page; null on the last one',
  })
  next_cursor!: string | null;

  @ApiProperty({ example: false })
  has_more!: boolean;
}
