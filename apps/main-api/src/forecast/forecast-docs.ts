/** The forecast's formulas, as both routes' OpenAPI descriptions give them. */
export const FORECAST_FORMULAS =
  "Actual = approved time entries; scheduled and tentative = the planner's confirmed and tentative daily " +
  "plan from today (UTC) on, a person's hours in their current position, a placeholder's in its own. " +
  "Hours are valued at their position's price on the project's ratecard (no price: 0). " +
  'ETC = scheduled (+ tentative with include_tentative=true); EAC = actual + ETC; estimate_hours by the ' +
  'active estimation mode; budget_amount = total_estimated (expected income); variance = estimate − EAC; ' +
  'burn_ratio = actual_amount / budget_amount; projected_profitability = projected income (EAC amount ' +
  'for hourly_rate, budget_amount otherwise) − Σ costs; budget_exhausted_on = the first day on which ' +
  'actual + ETC, accumulated by day, reaches budget_amount. Cumulative figures add up every day up to ' +
  "the period's end, also before from. Hours and amounts are summed exactly and rounded to cents.";

export const FORECAST_FORBIDDEN = 'AC006: only roles 1-3 read forecasts';

export const PLANNER_UNAVAILABLE =
  'AC503: the planner (the plan) is unreachable, failing or not configured; retry later';
