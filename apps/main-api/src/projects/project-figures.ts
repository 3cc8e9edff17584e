import type { EntityManager } from 'typeorm';
import type { Project } from './project.entity';

/** Hours and money figures of one project, computed from logged hours, ratecard prices and costs. */
export interface ProjectFigures {
  /** Hours logged on the project. */
  elapsedTime: number;
  /** Per position: hours logged in it and their value at the project's ratecard price. */
  byPosition: Map<number, { hoursCharged: number; totalCost: number }>;
  /** Per position category, the same summed over its positions. */
  byCategory: Map<number, { hoursCharged: number; totalCost: number }>;
  /** Expected income: one_time → estimated; fee → the fee's estimate; hourly_rate → Σ position estimate × price. */
  totalEstimated: number;
  /** totalEstimated − Σ budget lines (project_estimate). */
  estimatedProfitability: number;
  /** Income earned so far (hourly_rate: Σ logged hours × price; otherwise totalEstimated) − Σ costs (project_cost). */
  profitabilityNow: number;
}

const round = (value: number): number => Math.round(value * 100) / 100;

export async function computeProjectFigures(
  manager: EntityManager,
  project: Project,
): Promise<ProjectFigures> {
  const parameters = [project.id, project.companyId];
  const [hours, estimates, costs, fee] = await Promise.all([
    manager.query<
      { position_id: number | null; category_id: number | null; hours: string; price: string | null }[]
    >(
      `SELECT entry.user_position_id AS position_id, position.category_id, sum(entry.hours) AS hours, price.price
         FROM time_entries entry
         LEFT JOIN positions position ON position.id = entry.user_position_id
         LEFT JOIN ratecard_prices price ON price.ratecard_id = $3 AND price.position_id = entry.user_position_id
        WHERE entry.project_id = $1 AND entry.company_id = $2
        GROUP BY entry.user_position_id, position.category_id, price.price`,
      [...parameters, project.userPositionsHeaderId ?? 0],
    ),
    manager.query<{ total: string | null }[]>(
      'SELECT sum(cost) AS total FROM project_estimates WHERE project_id = $1 AND company_id = $2',
      parameters,
    ),
    manager.query<{ total: string | null }[]>(
      'SELECT sum(cost) AS total FROM project_costs WHERE project_id = $1 AND company_id = $2',
      parameters,
    ),
    project.feeId
      ? manager.query<{ estimate: string }[]>('SELECT estimate FROM fees WHERE id = $1 AND company_id = $2', [
          project.feeId,
          project.companyId,
        ])
      : Promise.resolve([]),
  ]);

  const byPosition = new Map<number, { hoursCharged: number; totalCost: number }>();
  const byCategory = new Map<number, { hoursCharged: number; totalCost: number }>();
  let elapsedTime = 0;
  let earnedByRate = 0;
  for (const row of hours) {
    const logged = Number(row.hours);
    const value = logged * Number(row.price ?? 0);
    elapsedTime += logged;
    earnedByRate += value;
    for (const [map, key] of [
      [byPosition, row.position_id],
      [byCategory, row.category_id],
    ] as const) {
      if (key !== null) {
        const current = map.get(key) ?? { hoursCharged: 0, totalCost: 0 };
        map.set(key, {
          hoursCharged: round(current.hoursCharged + logged),
          totalCost: round(current.totalCost + value),
        });
      }
    }
  }

  let totalEstimated = 0;
  switch (project.incomeType) {
    case 'one_time':
      totalEstimated = Number(project.estimated ?? 0);
      break;
    case 'fee':
      totalEstimated = Number(fee[0]?.estimate ?? 0);
      break;
    case 'hourly_rate': {
      const [row] = await manager.query<{ total: string | null }[]>(
        `SELECT sum(line.estimated_hours * coalesce(price.price, 0)) AS total
           FROM project_positions line
           LEFT JOIN ratecard_prices price ON price.ratecard_id = $3 AND price.position_id = line.position_id
          WHERE line.project_id = $1 AND line.company_id = $2 AND line.deleted_at IS NULL`,
        [...parameters, project.userPositionsHeaderId ?? 0],
      );
      totalEstimated = Number(row?.total ?? 0);
      break;
    }
    case 'contract':
    case null:
      break;
  }
  const earned = project.incomeType === 'hourly_rate' ? earnedByRate : totalEstimated;
  return {
    elapsedTime: round(elapsedTime),
    byPosition,
    byCategory,
    totalEstimated: round(totalEstimated),
    estimatedProfitability: round(totalEstimated - Number(estimates[0]?.total ?? 0)),
    profitabilityNow: round(earned - Number(costs[0]?.total ?? 0)),
  };
}

export type ProjectSummaryFigures = Pick<
  ProjectFigures,
  'elapsedTime' | 'totalEstimated' | 'estimatedProfitability' | 'profitabilityNow'
>;

/**
 * The same headline figures for a page of projects, in a fixed number of grouped queries whatever
 * the page size (never one query per project).
 */
export async function computeSummaryFigures(
  manager: EntityManager,
  projects: Project[],
): Promise<Map<number, ProjectSummaryFigures>> {
  const figures = new Map<number, ProjectSummaryFigures>();
  if (projects.length === 0) {
    return figures;
  }
  const ids = projects.map((project) => project.id);
  const companyId = projects[0].companyId;
  const [hours, planned, estimates, costs, fees] = await Promise.all([
    manager.query<{ project_id: number; hours: string; earned: string }[]>(
      `SELECT entry.project_id, sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
         FROM time_entries entry
         JOIN projects project ON project.id = entry.project_id
         LEFT JOIN ratecard_prices price ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
        WHERE entry.project_id = ANY($1) AND entry.company_id = $2
        GROUP BY entry.project_id`,
      [ids, companyId],
    ),
    manager.query<{ project_id: number; total: string }[]>(
      `SELECT line.project_id, sum(line.estimated_hours * coalesce(price.price, 0)) AS total
         FROM project_positions line
         JOIN projects project ON project.id = line.project_id
         LEFT JOIN ratecard_prices price ON price.ratecard_id = project.user_positions_header_id AND price.position_id = line.position_id
        WHERE line.project_id = ANY($1) AND line.company_id = $2 AND line.deleted_at IS NULL
        GROUP BY line.project_id`,
      [ids, companyId],
    ),
    manager.query<{ project_id: number; total: string }[]>(
      'SELECT project_id, sum(cost) AS total FROM project_estimates WHERE project_id = ANY($1) AND company_id = $2 GROUP BY project_id',
      [ids, companyId],
    ),
    manager.query<{ project_id: number; total: string }[]>(
      'SELECT project_id, sum(cost) AS total FROM project_costs WHERE project_id = ANY($1) AND company_id = $2 GROUP BY project_id',
      [ids, companyId],
    ),
    manager.query<{ id: number; estimate: string }[]>(
      'SELECT id, estimate FROM fees WHERE id = ANY($1) AND company_id = $2',
      [projects.map((project) => project.feeId ?? 0), companyId],
    ),
  ]);
  const byProject = <Row extends { project_id: number }>(rows: Row[]) =>
    new Map(rows.map((row) => [row.project_id, row]));
  const [hoursOf, plannedOf, estimatesOf, costsOf] = [
    byProject(hours),
    byProject(planned),
    byProject(estimates),
    byProject(costs),
  ];
  const feeOf = new Map(fees.map((fee) => [fee.id, Number(fee.estimate)]));
  for (const project of projects) {
    const totalEstimated =
      project.incomeType === 'one_time'
        ? Number(project.estimated ?? 0)
        : project.incomeType === 'fee'
          ? (feeOf.get(project.feeId ?? 0) ?? 0)
          : project.incomeType === 'hourly_rate'
            ? Number(plannedOf.get(project.id)?.total ?? 0)
            : 0;
    const earned =
      project.incomeType === 'hourly_rate' ? Number(hoursOf.get(project.id)?.earned ?? 0) : totalEstimated;
    figures.set(project.id, {
      elapsedTime: round(Number(hoursOf.get(project.id)?.hours ?? 0)),
      totalEstimated: round(totalEstimated),
      estimatedProfitability: round(totalEstimated - Number(estimatesOf.get(project.id)?.total ?? 0)),
      profitabilityNow: round(earned - Number(costsOf.get(project.id)?.total ?? 0)),
    });
  }
  return figures;
}
