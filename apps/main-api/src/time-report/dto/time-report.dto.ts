import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const WITH_COMPARE = 'Only with compare=planned. ';

/** A group's hours over a period or over the whole report, rounded to hundredths. */
export class TimeReportFiguresDto {
  @ApiProperty({ example: 31.5, description: 'Hours of the time entries that are not rejected' })
  logged_hours!: number;

  @ApiProperty({ example: 24, description: 'Hours of the approved time entries' })
  approved_hours!: number;

  @ApiProperty({ example: 28, description: 'Hours of the billable time entries that are not rejected' })
  billable_hours!: number;

  @ApiPropertyOptional({
    example: 32,
    description: `${WITH_COMPARE}The planner's confirmed hours (a placeholder's only in a report by project alone, not narrowed to people)`,
  })
  planned_hours?: number;

  @ApiPropertyOptional({ example: 4, description: `${WITH_COMPARE}The planner's tentative hours` })
  tentative_hours?: number;

  @ApiPropertyOptional({ example: -0.5, description: `${WITH_COMPARE}logged_hours − planned_hours` })
  variance_hours?: number;
}

/** One period of a group's series. */
export class TimeReportPeriodDto extends TimeReportFiguresDto {
  @ApiProperty({
    format: 'date',
    example: '2026-03-02',
    description: "The period's first day (a Monday, a 1st), or from when from cuts the period",
  })
  period_start!: string;

  @ApiProperty({
    format: 'date',
    example: '2026-03-08',
    description: "The period's last day (a Sunday, a month's last day), or to when to cuts the period",
  })
  period_end!: string;
}

/** One group: a person, a project, or a person on a project. */
export class TimeReportRowDto {
  @ApiPropertyOptional({ type: 'integer', example: 12, description: 'With group_by user or user,project' })
  user_id?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Ada',
    description: "With user_id: the person's first name (null for an id the company does not know)",
  })
  first_name?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Lovelace',
    description: "With user_id: the person's last name (null for an id the company does not know)",
  })
  last_name?: string | null;

  @ApiPropertyOptional({ type: 'integer', example: 88, description: 'With group_by project or user,project' })
  project_id?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Website relaunch',
    description: "With project_id: the project's name (null for an id the company does not know)",
  })
  project_name?: string | null;

  @ApiProperty({ type: TimeReportFiguresDto, description: "The sums of the group's periods" })
  totals!: TimeReportFiguresDto;

  @ApiProperty({
    type: [TimeReportPeriodDto],
    description: 'Every period of from..to in order, also those without hours',
  })
  periods!: TimeReportPeriodDto[];
}

/** `GET /v1/reports/time`: a cursor page of groups. */
export class TimeReportDto {
  @ApiProperty({ type: [TimeReportRowDto], description: 'By user_id, then project_id, ascending' })
  data!: TimeReportRowDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Send as cursor for the next page; null on the last one',
  })
  next_cursor!: string | null;

  @ApiProperty({ example: false, description: 'Whether another page follows' })
  has_more!: boolean;
}
