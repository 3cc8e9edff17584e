import {
  burnRatio,
  round2,
  type ForecastPeriodFigures,
  type ForecastTotals,
  type ProjectForecast,
} from './forecast';

/** The totals and the series of a group of projects (a client's, a manager's, or one project). */
export interface GroupForecast {
  totals: ForecastTotals;
  periods: ForecastPeriodFigures[];
}

type AdditiveTotal = Exclude<keyof ForecastTotals, 'burn_ratio' | 'budget_exhausted_on'>;
type AdditivePeriodFigure = Exclude<keyof ForecastPeriodFigures, 'period_start' | 'period_end'>;

const ADDITIVE_TOTALS = [
  'actual_hours',
  'actual_amount',
  'scheduled_hours',
  'scheduled_amount',
  'tentative_hours',
  'tentative_amount',
  'etc_hours',
  'etc_amount',
  'eac_hours',
  'eac_amount',
  'estimate_hours',
  'budget_amount',
  'variance_hours',
  'variance_amount',
  'projected_profitability',
] as const satisfies readonly AdditiveTotal[];

const ADDITIVE_PERIOD_FIGURES = [
  'actual_hours',
  'actual_amount',
  'scheduled_hours',
  'scheduled_amount',
  'tentative_hours',
  'tentative_amount',
  'cumulative_hours',
  'cumulative_amount',
] as const satisfies readonly AdditivePeriodFigure[];

/**
 * A group's figures as the sum of its projects' forecasts, as they are answered (rounded), so that a
 * group always equals the sum of its projects' own forecasts: each additive figure summed, the burn
 * ratio recomputed from the sums, the budget exhausted on the earliest of the projects' days. The
 * forecasts share one range and granularity, hence one series of periods.
 */
export function sumForecasts(forecasts: readonly ProjectForecast[]): GroupForecast {
  const [first, ...others] = forecasts;
  const totals = { ...first.totals };
  const periods = first.periods.map((period) => ({ ...period }));
  for (const forecast of others) {
    for (const key of ADDITIVE_TOTALS) {
      totals[key] = round2(totals[key] + forecast.totals[key]);
    }
    forecast.periods.forEach((period, index) => {
      for (const key of ADDITIVE_PERIOD_FIGURES) {
        periods[index][key] = round2(periods[index][key] + period[key]);
      }
    });
  }
  const exhausted = forecasts
    .map((forecast) => forecast.totals.budget_exhausted_on)
    .filter((day): day is string => day !== null)
    .sort();
  return {
    totals: {
      ...totals,
      burn_ratio: burnRatio(totals.actual_amount, totals.budget_amount),
      budget_exhausted_on: exhausted[0] ?? null,
    },
    periods,
  };
}
