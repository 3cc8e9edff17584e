import type { Project } from './project.entity';

/** What the figures read of a project itself. */
type IncomeModel = Pick<Project, 'incomeType' | 'estimated'>;

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

/** The sums behind the figures of one project (PROJECT_SUMS), as pg answers numeric: text. */
export interface ProjectSums {
  hours: string | null;
  earned: string | null;
  planned: string | null;
  budgeted: string | null;
  costs: string | null;
  /** The estimate of the project's fee. */
  fee: string | null;
}

/** The sums of one of several projects (`ProjectFiguresRepository.totals`). */
export interface ProjectTotals extends ProjectSums {
  project_id: number;
}

/**
 * Hours logged on a project in one position (null: hours without a position), and their value at the
 * project's ratecard price. Numbers: they arrive inside the detail's JSON.
 */
export interface LoggedHoursByPosition {
  position_id: number | null;
  category_id: number | null;
  hours: number;
  earned: number;
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** The headline figures of a project from its sums (no sums: a project with nothing logged). */
export function summarizeProject(
  project: IncomeModel,
  totals: ProjectSums | undefined,
): ProjectSummaryFigures {
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
  project: IncomeModel,
  totals: ProjectSums,
  logged: LoggedHoursByPosition[],
): ProjectFigures {
  const byPosition = new Map<number, { hoursCharged: number; totalCost: number }>();
  const byCategory = new Map<number, { hoursCharged: number; totalCost: number }>();
  for (const row of logged) {
    for (const [map, key] of [
      [byPosition, row.position_id],
      [byCategory, row.category_id],
    ] as const) {
      if (key !== null) {
        const current = map.get(key) ?? { hoursCharged: 0, totalCost: 0 };
        map.set(key, {
          hoursCharged: round(current.hoursCharged + row.hours),
          totalCost: round(current.totalCost + row.earned),
        });
      }
    }
  }
  return { ...summarizeProject(project, totals), byPosition, byCategory };
}
