import { Injectable } from '@nestjs/common';
import { PlannerClient, type PlannedHoursRow } from '../planner-client/planner.client';
import { summarizeProject } from '../projects/project-figures';
import type { ApprovedHours, EstimateMode, ForecastProjectFacts, PositionDirectory } from './forecast';
import { addDays } from '../common/calendar-periods';
import { ForecastRepository, type PositionDirectoryRow, type ProjectFactsRow } from './forecast.repository';

/** How far the plan is read: the planner's horizon (ten years from today). */
const PLAN_HORIZON_DAYS = 3650;

/** Everything the forecasts of some projects read, gathered in a fixed number of statements. */
export interface ForecastInputs {
  /** By project id. */
  approved: ReadonlyMap<number, ApprovedHours[]>;
  planned: ReadonlyMap<number, PlannedHoursRow[]>;
  positions: PositionDirectory;
}

/**
 * Reads what the forecasts of any number of projects need: their facts in one statement, their
 * approved hours in one, their plan in one planner call (per 500 projects), and the positions of
 * the people and placeholders in one more.
 */
@Injectable()
export class ForecastInputReader {
  constructor(
    private readonly forecasts: ForecastRepository,
    private readonly planner: PlannerClient,
  ) {}

  /** Those of the projects that exist in the company and are not deleted, by id. */
  async projectFacts(ids: readonly number[]): Promise<ForecastProjectFacts[]> {
    if (ids.length === 0) {
      return [];
    }
    return (await this.forecasts.projectFacts(ids)).map(factsOf);
  }

  /** The approved hours and the plan from `today` of the projects; the plan with the caller's token. */
  async inputsOf(
    projects: readonly ForecastProjectFacts[],
    today: string,
    authorization: string,
  ): Promise<ForecastInputs> {
    const ids = projects.map((project) => project.id);
    if (ids.length === 0) {
      return { approved: new Map(), planned: new Map(), positions: directoryOf([]) };
    }
    const [approvedRows, plannedRows] = await Promise.all([
      this.forecasts.approvedHours(ids),
      this.planner.plannedHours(
        { projectIds: ids, from: today, to: addDays(today, PLAN_HORIZON_DAYS), granularity: 'day' },
        authorization,
      ),
    ]);
    const userIds = new Set<number>();
    const positionIds = new Set<number>();
    for (const row of plannedRows) {
      if (row.user_id !== null) {
        userIds.add(row.user_id);
      } else if (row.position_id !== null) {
        positionIds.add(row.position_id);
      }
    }
    for (const row of approvedRows) {
      if (row.position_id !== null) {
        positionIds.add(row.position_id);
      }
    }
    const directory =
      userIds.size + positionIds.size === 0
        ? []
        : await this.forecasts.positionDirectory([...userIds], [...positionIds]);
    return {
      approved: groupBy(approvedRows, (row) => row.project_id),
      planned: groupBy(plannedRows, (row) => row.project_id),
      positions: directoryOf(directory),
    };
  }
}

function factsOf(row: ProjectFactsRow): ForecastProjectFacts {
  const prices = new Map(row.prices.map((price) => [price.position_id, Number(price.price)]));
  // Σ position estimate × price: the expected income of an hourly-rate project (PROJECT_SUMS' `planned`).
  const planned = row.position_lines.reduce(
    (total, line) => total + Number(line.estimated_hours) * (prices.get(line.position_id) ?? 0),
    0,
  );
  const figures = summarizeProject(
    { incomeType: row.income_type, estimated: row.estimated },
    { hours: null, earned: null, budgeted: null, planned: String(planned), costs: row.costs, fee: row.fee },
  );
  return {
    id: row.id,
    start: row.start,
    end: row.end,
    incomeType: row.income_type,
    estimateMode: estimateModeOf(row),
    estimatedTime: Number(row.estimated_time),
    budgetAmount: figures.totalEstimated,
    costs: Number(row.costs ?? 0),
    prices,
    positionLines: row.position_lines.map((line) => ({
      position_id: line.position_id,
      estimated_hours: Number(line.estimated_hours),
    })),
    categoryLines: row.category_lines.map((line) => ({
      category_id: line.category_id,
      estimated_hours: Number(line.estimated_hours),
    })),
  };
}

/** One mode at a time (the database refuses both flags): by position, by category, or the total. */
function estimateModeOf(row: ProjectFactsRow): EstimateMode {
  return row.estimated_by_position ? 'by_position' : row.estimation_by_categories ? 'by_category' : 'total';
}

function directoryOf(rows: readonly PositionDirectoryRow[]): PositionDirectory {
  const positionOfUser = new Map<number, number | null>();
  const categoryOfPosition = new Map<number, number | null>();
  for (const row of rows) {
    if (row.user_id !== null) {
      positionOfUser.set(row.user_id, row.position_id);
    }
    if (row.position_id !== null) {
      categoryOfPosition.set(row.position_id, row.category_id);
    }
  }
  return { positionOfUser, categoryOfPosition };
}

function groupBy<Row>(rows: readonly Row[], keyOf: (row: Row) => number): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row)) ?? [];
    group.push(row);
    groups.set(keyOf(row), group);
  }
  return groups;
}
