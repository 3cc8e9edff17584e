import type { PlannedHoursRow } from '../planner-client/planner.client';
import type { IncomeType } from '../projects/project.entity';
import { periodStartOf } from '../common/calendar-periods';
import { forecastRange, periodsOf, type ForecastGranularity, type ForecastRange } from './forecast-periods';

export type EstimateMode = 'total' | 'by_position' | 'by_category';

/** What a project's forecast reads of the project itself (`ForecastRepository.projectFacts`). */
export interface ForecastProjectFacts {
  id: number;
  start: string | null;
  end: string | null;
  incomeType: IncomeType | null;
  estimateMode: EstimateMode;
  /** The total estimate (`estimated_time`), the estimate of the `total` mode. */
  estimatedTime: number;
  /** Expected income: `totalEstimated` of the project's figures (summarizeProject). */
  budgetAmount: number;
  /** Σ project costs. */
  costs: number;
  /** Price of each position on the project's ratecard; a position without one is worth 0. */
  prices: ReadonlyMap<number, number>;
  positionLines: readonly { position_id: number; estimated_hours: number }[];
  categoryLines: readonly { category_id: number; estimated_hours: number }[];
}

/** Approved hours of the project on one day in one position (null: logged without one). */
export interface ApprovedHours {
  date: string;
  position_id: number | null;
  hours: number;
}

/** Where hours count: people by their current position, positions by their category. */
export interface PositionDirectory {
  positionOfUser: ReadonlyMap<number, number | null>;
  categoryOfPosition: ReadonlyMap<number, number | null>;
}

export interface ForecastOptions {
  /** The current UTC day: planned hours are the plan from it on. */
  today: string;
  granularity: ForecastGranularity;
  from?: string;
  to?: string;
  includeTentative: boolean;
}

/** Hours and their value, by kind: approved (actual), confirmed planned (scheduled), tentative planned. */
export interface ForecastFigures {
  actual_hours: number;
  actual_amount: number;
  scheduled_hours: number;
  scheduled_amount: number;
  tentative_hours: number;
  tentative_amount: number;
}

export interface ForecastPeriodFigures extends ForecastFigures {
  period_start: string;
  period_end: string;
  /** Actual + scheduled (+ tentative when included) of every day up to period_end, also before `from`. */
  cumulative_hours: number;
  cumulative_amount: number;
}

export interface ForecastTotals extends ForecastFigures {
  etc_hours: number;
  etc_amount: number;
  eac_hours: number;
  eac_amount: number;
  estimate_hours: number;
  budget_amount: number;
  variance_hours: number;
  variance_amount: number;
  burn_ratio: number | null;
  projected_profitability: number;
  budget_exhausted_on: string | null;
}

interface BreakdownFigures extends ForecastFigures {
  estimated_hours: number;
  eac_hours: number;
  eac_amount: number;
  variance_hours: number;
}

export interface ForecastPositionRow extends BreakdownFigures {
  position_id: number | null;
  estimated_amount: number;
  variance_amount: number;
}

/** A category has no price of its own: its estimate lines have hours, no amount. */
export interface ForecastCategoryRow extends BreakdownFigures {
  category_id: number | null;
  estimated_amount: null;
  variance_amount: null;
}

export interface ProjectForecast {
  project_id: number;
  as_of: string;
  from: string;
  to: string;
  granularity: ForecastGranularity;
  include_tentative: boolean;
  estimate_mode: EstimateMode;
  totals: ForecastTotals;
  periods: ForecastPeriodFigures[];
  by_position: ForecastPositionRow[];
  by_category: ForecastCategoryRow[];
}

type Kind = 'actual' | 'scheduled' | 'tentative';

/** Hours of one kind on one day, in a position and category, valued at the position's price. */
interface ValuedHours {
  kind: Kind;
  date: string;
  positionId: number | null;
  categoryId: number | null;
  hours: number;
  amount: number;
}

const FIGURE_KEYS = [
  'actual_hours',
  'actual_amount',
  'scheduled_hours',
  'scheduled_amount',
  'tentative_hours',
  'tentative_amount',
] as const satisfies readonly (keyof ForecastFigures)[];

export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The share of the budget approved work has spent, to 4 decimals (of the amounts as answered); null without a budget. */
export function burnRatio(actualAmount: number, budgetAmount: number): number | null {
  return budgetAmount === 0 ? null : Math.round((actualAmount / budgetAmount) * 10_000) / 10_000;
}

/**
 * A project's forecast: its approved hours (actual) and its plan from today on (scheduled, and
 * tentative), valued at the ratecard price of their position, per period of `from..to` and in all;
 * the estimate at completion (EAC = actual + ETC, ETC = scheduled + tentative when included), the
 * variance against the estimate, the burn of the budget and the day the budget runs out. Sums are
 * exact until the end, where every hour and amount is rounded to cents.
 */
export function projectForecast(
  project: ForecastProjectFacts,
  approved: readonly ApprovedHours[],
  planned: readonly PlannedHoursRow[],
  positions: PositionDirectory,
  options: ForecastOptions,
): ProjectForecast {
  const valued = [
    ...approved.map((row) =>
      valueHours(project, positions, {
        kind: 'actual',
        date: row.date,
        positionId: row.position_id,
        categoryId: null,
        hours: row.hours,
      }),
    ),
    ...planned.flatMap((row) => valuePlanned(project, positions, row)),
  ].filter((hours) => hours.hours !== 0);
  const range = forecastRange(options, defaultRange(project, valued, options), options.granularity);

  const totals = emptyFigures();
  for (const hours of valued) {
    addTo(totals, hours);
  }
  const etc = etcOf(totals, options.includeTentative);
  const eacHours = totals.actual_hours + etc.hours;
  const eacAmount = totals.actual_amount + etc.amount;
  const estimateHours = estimateOf(project);
  return {
    project_id: project.id,
    as_of: options.today,
    from: range.from,
    to: range.to,
    granularity: options.granularity,
    include_tentative: options.includeTentative,
    estimate_mode: project.estimateMode,
    totals: {
      ...roundFigures(totals),
      etc_hours: round2(etc.hours),
      etc_amount: round2(etc.amount),
      eac_hours: round2(eacHours),
      eac_amount: round2(eacAmount),
      estimate_hours: round2(estimateHours),
      budget_amount: round2(project.budgetAmount),
      variance_hours: round2(estimateHours - eacHours),
      variance_amount: round2(project.budgetAmount - eacAmount),
      burn_ratio: burnRatio(round2(totals.actual_amount), round2(project.budgetAmount)),
      // profitability_now carried to completion: hourly work earns what it is worth, the rest its estimate.
      projected_profitability: round2(
        (project.incomeType === 'hourly_rate' ? eacAmount : project.budgetAmount) - project.costs,
      ),
      budget_exhausted_on: exhaustionDay(
        valued.filter((hours) => counts(hours.kind, options.includeTentative)),
        project.budgetAmount,
      ),
    },
    periods: periodSeries(valued, options.includeTentative, range, options.granularity),
    by_position: positionRows(project, valued, options.includeTentative),
    by_category: categoryRows(project, valued, options.includeTentative),
  };
}

/** A planned row's confirmed and tentative hours, in the position of its person or placeholder. */
function valuePlanned(
  project: ForecastProjectFacts,
  positions: PositionDirectory,
  row: PlannedHoursRow,
): ValuedHours[] {
  const where = {
    date: row.period_start,
    positionId: row.user_id !== null ? (positions.positionOfUser.get(row.user_id) ?? null) : row.position_id,
    // A placeholder without a position may still name the category it needs.
    categoryId: row.user_id === null ? row.category_id : null,
  };
  return [
    valueHours(project, positions, { kind: 'scheduled', ...where, hours: row.confirmed_hours }),
    valueHours(project, positions, { kind: 'tentative', ...where, hours: row.tentative_hours }),
  ];
}

/** Hours valued at their position's price, in their position's category (else the one they name). */
function valueHours(
  project: ForecastProjectFacts,
  positions: PositionDirectory,
  hours: Omit<ValuedHours, 'amount'>,
): ValuedHours {
  const categoryId =
    hours.positionId !== null
      ? (positions.categoryOfPosition.get(hours.positionId) ?? hours.categoryId)
      : hours.categoryId;
  return { ...hours, categoryId, amount: hours.hours * priceOf(project, hours.positionId) };
}

function priceOf(project: ForecastProjectFacts, positionId: number | null): number {
  return positionId === null ? 0 : (project.prices.get(positionId) ?? 0);
}

/**
 * From the period of the earliest of the first approved day, the project's start and today, to the
 * period of the latest of the last planned day, the project's end and today.
 */
function defaultRange(
  project: ForecastProjectFacts,
  valued: readonly ValuedHours[],
  options: ForecastOptions,
): ForecastRange {
  let from = project.start !== null && project.start < options.today ? project.start : options.today;
  let to = project.end !== null && project.end > options.today ? project.end : options.today;
  for (const hours of valued) {
    if (hours.kind === 'actual' && hours.date < from) {
      from = hours.date;
    }
    if (hours.kind !== 'actual' && hours.date > to) {
      to = hours.date;
    }
  }
  return { from, to };
}

function estimateOf(project: ForecastProjectFacts): number {
  switch (project.estimateMode) {
    case 'total':
      return project.estimatedTime;
    case 'by_position':
      return sum(project.positionLines.map((line) => line.estimated_hours));
    case 'by_category':
      return sum(project.categoryLines.map((line) => line.estimated_hours));
  }
}

/**
 * The first day on which the counted value (approved by entry day, then planned by planned day)
 * reaches the budget; null without a positive budget or when the plan never reaches it.
 */
function exhaustionDay(valued: readonly ValuedHours[], budget: number): string | null {
  if (budget <= 0) {
    return null;
  }
  const byDay = new Map<string, number>();
  for (const hours of valued) {
    byDay.set(hours.date, (byDay.get(hours.date) ?? 0) + hours.amount);
  }
  let spent = 0;
  for (const day of [...byDay.keys()].sort()) {
    spent += byDay.get(day)!;
    // In cents, as both are shown: a sum a float error short of the budget has reached it.
    if (round2(spent) >= round2(budget)) {
      return day;
    }
  }
  return null;
}

function periodSeries(
  valued: readonly ValuedHours[],
  includeTentative: boolean,
  range: ForecastRange,
  granularity: ForecastGranularity,
): ForecastPeriodFigures[] {
  const periods = periodsOf(range, granularity);
  const byStart = new Map(periods.map((period) => [period.start, emptyFigures()]));
  let cumulativeHours = 0;
  let cumulativeAmount = 0;
  for (const hours of valued) {
    const figures = byStart.get(periodStartOf(hours.date, granularity));
    if (figures) {
      addTo(figures, hours);
    }
    if (hours.date < range.from && counts(hours.kind, includeTentative)) {
      cumulativeHours += hours.hours;
      cumulativeAmount += hours.amount;
    }
  }
  return periods.map((period) => {
    const figures = byStart.get(period.start)!;
    const counted = eacOf(figures, includeTentative);
    cumulativeHours += counted.hours;
    cumulativeAmount += counted.amount;
    return {
      period_start: period.start,
      period_end: period.end,
      ...roundFigures(figures),
      cumulative_hours: round2(cumulativeHours),
      cumulative_amount: round2(cumulativeAmount),
    };
  });
}

/** Whether hours of this kind are in ETC, EAC and the cumulative figures. */
function counts(kind: Kind, includeTentative: boolean): boolean {
  return kind !== 'tentative' || includeTentative;
}

/** One row per position line (also without work) and per position worked or planned in. */
function positionRows(
  project: ForecastProjectFacts,
  valued: readonly ValuedHours[],
  includeTentative: boolean,
): ForecastPositionRow[] {
  const rows = breakdown(
    project.positionLines.map((line) => [line.position_id, line.estimated_hours]),
    valued.map((hours) => [hours.positionId, hours]),
  );
  return rows.map(([positionId, { estimatedHours, figures }]) => {
    const estimatedAmount = estimatedHours * priceOf(project, positionId);
    const eac = eacOf(figures, includeTentative);
    return {
      position_id: positionId,
      estimated_hours: round2(estimatedHours),
      estimated_amount: round2(estimatedAmount),
      ...roundFigures(figures),
      eac_hours: round2(eac.hours),
      eac_amount: round2(eac.amount),
      variance_hours: round2(estimatedHours - eac.hours),
      variance_amount: round2(estimatedAmount - eac.amount),
    };
  });
}

/** One row per category line (also without work) and per category worked or planned in. */
function categoryRows(
  project: ForecastProjectFacts,
  valued: readonly ValuedHours[],
  includeTentative: boolean,
): ForecastCategoryRow[] {
  const rows = breakdown(
    project.categoryLines.map((line) => [line.category_id, line.estimated_hours]),
    valued.map((hours) => [hours.categoryId, hours]),
  );
  return rows.map(([categoryId, { estimatedHours, figures }]) => {
    const eac = eacOf(figures, includeTentative);
    return {
      category_id: categoryId,
      estimated_hours: round2(estimatedHours),
      estimated_amount: null,
      ...roundFigures(figures),
      eac_hours: round2(eac.hours),
      eac_amount: round2(eac.amount),
      variance_hours: round2(estimatedHours - eac.hours),
      variance_amount: null,
    };
  });
}

/** Estimate lines and valued hours gathered by key, ordered by key with the null key last. */
function breakdown(
  lines: [number, number][],
  hours: [number | null, ValuedHours][],
): [number | null, { estimatedHours: number; figures: ForecastFigures }][] {
  const rows = new Map<number | null, { estimatedHours: number; figures: ForecastFigures }>();
  const rowOf = (key: number | null) => {
    const row = rows.get(key) ?? { estimatedHours: 0, figures: emptyFigures() };
    rows.set(key, row);
    return row;
  };
  for (const [key, estimatedHours] of lines) {
    rowOf(key).estimatedHours += estimatedHours;
  }
  for (const [key, valued] of hours) {
    addTo(rowOf(key).figures, valued);
  }
  return [...rows.entries()].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a - b));
}

/** Estimate to complete: the plan from today on, tentative hours when included. */
function etcOf(figures: ForecastFigures, includeTentative: boolean): { hours: number; amount: number } {
  return {
    hours: figures.scheduled_hours + (includeTentative ? figures.tentative_hours : 0),
    amount: figures.scheduled_amount + (includeTentative ? figures.tentative_amount : 0),
  };
}

/** Estimate at completion: actual + ETC. */
function eacOf(figures: ForecastFigures, includeTentative: boolean): { hours: number; amount: number } {
  const etc = etcOf(figures, includeTentative);
  return { hours: figures.actual_hours + etc.hours, amount: figures.actual_amount + etc.amount };
}

function emptyFigures(): ForecastFigures {
  return Object.fromEntries(FIGURE_KEYS.map((key) => [key, 0])) as unknown as ForecastFigures;
}

function addTo(figures: ForecastFigures, hours: ValuedHours): void {
  figures[`${hours.kind}_hours`] += hours.hours;
  figures[`${hours.kind}_amount`] += hours.amount;
}

function roundFigures(figures: ForecastFigures): ForecastFigures {
  return Object.fromEntries(
    FIGURE_KEYS.map((key) => [key, round2(figures[key])]),
  ) as unknown as ForecastFigures;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
