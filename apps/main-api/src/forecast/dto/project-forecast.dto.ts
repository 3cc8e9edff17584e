import { ApiProperty } from '@nestjs/swagger';
import type {
  EstimateMode,
  ForecastCategoryRow,
  ForecastFigures,
  ForecastPeriodFigures,
  ForecastPositionRow,
  ForecastTotals,
  ProjectForecast,
} from '../forecast';
import { FORECAST_GRANULARITIES, type ForecastGranularity } from '../forecast-periods';

const ESTIMATE_MODES: EstimateMode[] = ['total', 'by_position', 'by_category'];

/** An hour or amount figure, rounded to cents. */
const figure = (example: number, description: string) => ({ type: Number, example, description });

/** Hours and their value by kind, rounded to cents. */
export class ForecastFiguresDto implements ForecastFigures {
  @ApiProperty(figure(120, 'Approved hours'))
  actual_hours!: number;

  @ApiProperty(figure(9600, "Approved hours × their position's price on the project's ratecard"))
  actual_amount!: number;

  @ApiProperty(figure(80, "Confirmed planned hours from today on (the planner's daily plan)"))
  scheduled_hours!: number;

  @ApiProperty(figure(6400, 'Scheduled hours × price'))
  scheduled_amount!: number;

  @ApiProperty(figure(16, 'Tentative planned hours from today on (shown whether or not they count)'))
  tentative_hours!: number;

  @ApiProperty(figure(1280, 'Tentative hours × price'))
  tentative_amount!: number;
}

export class ForecastPeriodDto extends ForecastFiguresDto implements ForecastPeriodFigures {
  @ApiProperty({ format: 'date', example: '2026-11-01', description: 'The Monday, or the 1st of the month' })
  period_start!: string;

  @ApiProperty({
    format: 'date',
    example: '2026-11-30',
    description: 'The Sunday, or the last day of the month',
  })
  period_end!: string;

  @ApiProperty(
    figure(
      200,
      'Actual + scheduled (+ tentative when included) hours of every day up to period_end, also before from',
    ),
  )
  cumulative_hours!: number;

  @ApiProperty(figure(16000, 'The same, valued'))
  cumulative_amount!: number;
}

export class ForecastTotalsDto extends ForecastFiguresDto implements ForecastTotals {
  @ApiProperty(figure(80, 'Estimate to complete: scheduled (+ tentative when included)'))
  etc_hours!: number;

  @ApiProperty(figure(6400, 'ETC valued'))
  etc_amount!: number;

  @ApiProperty(figure(200, 'Estimate at completion: actual + ETC'))
  eac_hours!: number;

  @ApiProperty(figure(16000, 'EAC valued'))
  eac_amount!: number;

  @ApiProperty(
    figure(
      240,
      'The estimate of the active mode: estimated_time (total), Σ position lines (by_position) or Σ category lines (by_category)',
    ),
  )
  estimate_hours!: number;

  @ApiProperty(
    figure(
      20000,
      "Expected income, the project's total_estimated: one_time its estimated; fee the fee's estimate; " +
        'hourly_rate Σ position estimate × price; contract 0',
    ),
  )
  budget_amount!: number;

  @ApiProperty(figure(40, 'estimate_hours − eac_hours'))
  variance_hours!: number;

  @ApiProperty(figure(4000, 'budget_amount − eac_amount'))
  variance_amount!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.48,
    description: 'actual_amount / budget_amount, 4 decimals; null when budget_amount is 0',
  })
  burn_ratio!: number | null;

  @ApiProperty(
    figure(
      3500,
      'Projected income − Σ project costs; projected income is eac_amount for hourly_rate projects, budget_amount otherwise',
    ),
  )
  projected_profitability!: number;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    example: '2027-03-12',
    description:
      'The first day on which actual (by entry day) + ETC (by planned day), accumulated over all days, ' +
      'reaches budget_amount; null when budget_amount ≤ 0 or it is never reached',
  })
  budget_exhausted_on!: string | null;
}

class ForecastBreakdownDto extends ForecastFiguresDto {
  @ApiProperty(figure(100, "The estimate line's hours (0 without a line)"))
  estimated_hours!: number;

  @ApiProperty(figure(110, 'actual + scheduled (+ tentative when included)'))
  eac_hours!: number;

  @ApiProperty(figure(8800, 'EAC valued'))
  eac_amount!: number;

  @ApiProperty(figure(-10, 'estimated_hours − eac_hours'))
  variance_hours!: number;
}

export class ForecastPositionRowDto extends ForecastBreakdownDto implements ForecastPositionRow {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 3,
    description: 'null: hours without a position',
  })
  position_id!: number | null;

  @ApiProperty(figure(8000, 'estimated_hours × price'))
  estimated_amount!: number;

  @ApiProperty(figure(-800, 'estimated_amount − eac_amount'))
  variance_amount!: number;
}

export class ForecastCategoryRowDto extends ForecastBreakdownDto implements ForecastCategoryRow {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 2,
    description: "The position's category; null: hours without one",
  })
  category_id!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'Always null: a category has no price of its own on the ratecard',
  })
  estimated_amount!: null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'Always null, as estimated_amount',
  })
  variance_amount!: null;
}

/** `GET /v1/projects/{project_id}/forecast`. */
export class ProjectForecastDto implements ProjectForecast {
  @ApiProperty({ type: 'integer', example: 88 })
  project_id!: number;

  @ApiProperty({
    format: 'date',
    example: '2026-11-28',
    description: 'Today (UTC): the plan counts from it on',
  })
  as_of!: string;

  @ApiProperty({ format: 'date', example: '2026-01-01', description: 'The first day of the first period' })
  from!: string;

  @ApiProperty({ format: 'date', example: '2027-06-30', description: 'The last day of the last period' })
  to!: string;

  @ApiProperty({ enum: FORECAST_GRANULARITIES, example: 'month' })
  granularity!: ForecastGranularity;

  @ApiProperty({ example: false })
  include_tentative!: boolean;

  @ApiProperty({ enum: ESTIMATE_MODES, example: 'by_position', description: 'The estimation mode in force' })
  estimate_mode!: EstimateMode;

  @ApiProperty({ type: ForecastTotalsDto, description: 'All time, also outside from..to' })
  totals!: ForecastTotalsDto;

  @ApiProperty({
    type: [ForecastPeriodDto],
    description: 'Every period of from..to, also those without hours',
  })
  periods!: ForecastPeriodDto[];

  @ApiProperty({
    type: [ForecastPositionRowDto],
    description:
      'One row per position estimate line (also without work) and per position worked or planned in, ' +
      'by position_id, null last; all time',
  })
  by_position!: ForecastPositionRowDto[];

  @ApiProperty({
    type: [ForecastCategoryRowDto],
    description:
      'One row per category estimate line (also without work) and per category worked or planned in ' +
      '(a position counts in its category), by category_id, null last; all time',
  })
  by_category!: ForecastCategoryRowDto[];
}
