import { preparedStatementName, type ScopedSql } from '@platform/database';
import type { Project } from './project.entity';

/** Hours and money figures of one project, computed from logged hours, ratecard prices and costs. */
export interface ProjectFigures extends ProjectSummaryFigures {
  /** Per position: hours logged in it and their value at the project's ratecard price. */
  byPosition: Map<number, { hoursCharged: number; totalCost: number }>;
  /** Per position category, the same summed over its positions. */
  byCategory: Map<number, { hoursCharged: number; totalCost: number }>;
}

/** The headline figures every project representation carries. */
export interface ProjectSummaryFigures {
  /** Hours logged on the project. */
  elapsedTime: number;
  /** Expected income: one_time → estimated; fee → the fee's estimate; hourly_rate → Σ position estimate × price. */
  totalEstimated: number;
  /** totalEstimated − Σ budget lines (project_estimate). */
  estimatedProfitability: number;
  /** Income earned so far (hourly_rate: Σ logged hours × price; otherwise totalEstimated) − Σ costs (project_cost). */
  profitabilityNow: number;
}

/** The sums behind the figures of one project, as one row of `fetchProjectTotals`. */
export interface ProjectTotals {
  project_id: number;
  hours: string | null;
  earned: string | null;
  planned: string | null;
  budgeted: string | null;
  costs: string | null;
  fee: string | null;
}

/** One row per position the project's hours were logged in (null: hours without a position). */
export interface LoggedHoursByPosition {
  position_id: number | null;
  category_id: number | null;
  hours: string;
  earned: string;
}

const round = (value: number): number => Math.round(value * 100) / 100;

// Fixed texts, prepared once per connection (ScopedSql.select, readRows).
const PROJECT_TOTALS_SQL = `SELECT project.id AS project_id, logged.hours, logged.earned,
          (SELECT sum(line.estimated_hours * coalesce(price.price, 0))
             FROM project_positions line
             LEFT JOIN ratecard_prices price
               ON price.ratecard_id = project.user_positions_header_id AND price.position_id = line.position_id
            WHERE line.project_id = project.id AND line.company_id = project.company_id AND line.deleted_at IS NULL) AS planned,
          (SELECT sum(cost) FROM project_estimates budget
            WHERE budget.project_id = project.id AND budget.company_id = project.company_id) AS budgeted,
          (SELECT sum(cost) FROM project_costs cost
            WHERE cost.project_id = project.id AND cost.company_id = project.company_id) AS costs,
          (SELECT estimate FROM fees fee WHERE fee.id = project.fee_id AND fee.company_id = project.company_id) AS fee
     FROM projects project
     LEFT JOIN LATERAL (
          SELECT sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
            FROM time_entries entry
            LEFT JOIN ratecard_prices price
              ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
           WHERE entry.project_id = project.id AND entry.company_id = project.company_id) logged ON true
    WHERE project.id = ANY($1) AND project.company_id = $2`;
const PROJECT_TOTALS = preparedStatementName(PROJECT_TOTALS_SQL);

const LOGGED_HOURS_BY_POSITION_SQL = `SELECT entry.user_position_id AS position_id, position.category_id,
          sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
     FROM time_entries entry
     JOIN projects project ON project.id = entry.project_id AND project.company_id = entry.company_id
     LEFT JOIN positions position ON position.id = entry.user_position_id
     LEFT JOIN ratecard_prices price
       ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
    WHERE entry.project_id = $1 AND entry.company_id = $2
    GROUP BY entry.user_position_id, position.category_id`;
const LOGGED_HOURS_BY_POSITION = preparedStatementName(LOGGED_HOURS_BY_POSITION_SQL);

/**
 * Every sum the figures need, for any number of projects, in one statement made through a scope's
 * `sql` (row-level security sees its company): the ratecard and fee are read from each project's
 * own row, so the caller does not need the projects first and can run this beside the query that
 * loads them.
 */
export async function fetchProjectTotals(
  sql: ScopedSql,
  projectIds: number[],
  companyId: number,
): Promise<Map<number, ProjectTotals>> {
  if (projectIds.length === 0) {
    return new Map();
  }
  const rows = await sql.select<ProjectTotals>(PROJECT_TOTALS_SQL, [projectIds, companyId], PROJECT_TOTALS);
  return new Map(rows.map((row) => [row.project_id, row]));
}

/** Hours logged on one project per position, valued at the project's ratecard price. */
export function fetchLoggedHoursByPosition(
  sql: ScopedSql,
  projectId: number,
  companyId: number,
): Promise<LoggedHoursByPosition[]> {
  return sql.select<LoggedHoursByPosition>(
    LOGGED_HOURS_BY_POSITION_SQL,
    [projectId, companyId],
    LOGGED_HOURS_BY_POSITION,
  );
}

/** The headline figures of a project from its sums (no sums: a project with nothing logged). */
export function summarizeProject(project: Project, totals: ProjectTotals | undefined): ProjectSummaryFigures {
  const totalEstimated =
    project.incomeType === 'one_time'
      ? Number(project.estimated ?? 0)
      : project.incomeType === 'fee'
        ? Number(totals?.fee ?? 0)
        : project.incomeType === 'hourly_rate'
          ? Number(totals?.planned ?? 0)
          : 0;
  const earned = project.incomeType === 'hourly_rate' ? Number(totals?.earned ?? 0) : totalEstimated;
  return {
    elapsedTime: round(Number(totals?.hours ?? 0)),
    totalEstimated: round(totalEstimated),
    estimatedProfitability: round(totalEstimated - Number(totals?.budgeted ?? 0)),
    profitabilityNow: round(earned - Number(totals?.costs ?? 0)),
  };
}

/** The full figures of one project: the headline ones plus hours and value per position and category. */
export function projectFigures(
  project: Project,
  totals: ProjectTotals | undefined,
  logged: LoggedHoursByPosition[],
): ProjectFigures {
  const byPosition = new Map<number, { hoursCharged: number; totalCost: number }>();
  const byCategory = new Map<number, { hoursCharged: number; totalCost: number }>();
  for (const row of logged) {
    const hours = Number(row.hours);
    const value = Number(row.earned);
    for (const [map, key] of [
      [byPosition, row.position_id],
      [byCategory, row.category_id],
    ] as const) {
      if (key !== null) {
        const current = map.get(key) ?? { hoursCharged: 0, totalCost: 0 };
        map.set(key, {
          hoursCharged: round(current.hoursCharged + hours),
          totalCost: round(current.totalCost + value),
        });
      }
    }
  }
  return { ...summarizeProject(project, totals), byPosition, byCategory };
}
