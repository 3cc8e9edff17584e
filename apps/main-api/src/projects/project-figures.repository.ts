import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope } from '@platform/database';
import type { ProjectTotals } from './project-figures';

/**
 * The sums behind a project's figures (ProjectSums), as columns of a statement over `projects
 * project` that joins LOGGED_SUMS. The ratecard and fee are read from the project's own row, so the
 * sums need nothing loaded first; the totals of a list and the project detail share this text.
 */
export const PROJECT_SUMS = `logged.hours, logged.earned,
          (SELECT sum(line.estimated_hours * coalesce(price.price, 0))
             FROM project_positions line
             LEFT JOIN ratecard_prices price
               ON price.ratecard_id = project.user_positions_header_id AND price.position_id = line.position_id
            WHERE line.project_id = project.id AND line.company_id = project.company_id AND line.deleted_at IS NULL) AS planned,
          (SELECT sum(cost) FROM project_estimates budget
            WHERE budget.project_id = project.id AND budget.company_id = project.company_id) AS budgeted,
          (SELECT sum(cost) FROM project_costs cost
            WHERE cost.project_id = project.id AND cost.company_id = project.company_id) AS costs,
          (SELECT estimate FROM fees fee WHERE fee.id = project.fee_id AND fee.company_id = project.company_id) AS fee`;

/** The join PROJECT_SUMS reads the logged hours and their value from. */
export const LOGGED_SUMS = `LEFT JOIN LATERAL (
          SELECT sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
            FROM time_entries entry
            LEFT JOIN ratecard_prices price
              ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
           WHERE entry.project_id = project.id AND entry.company_id = project.company_id) logged ON true`;

/**
 * The hours logged on `project` per position, valued at its ratecard price, as a JSON array of
 * LoggedHoursByPosition (`[]` without hours): a column of the project detail.
 */
export const LOGGED_HOURS_BY_POSITION = `(SELECT coalesce(json_agg(by_position), '[]')
     FROM (SELECT entry.user_position_id AS position_id, position.category_id,
                  sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
             FROM time_entries entry
             LEFT JOIN positions position ON position.id = entry.user_position_id
             LEFT JOIN ratecard_prices price
               ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
            WHERE entry.project_id = project.id AND entry.company_id = project.company_id
            GROUP BY entry.user_position_id, position.category_id) by_position)`;

const PROJECT_TOTALS = `SELECT project.id AS project_id, ${PROJECT_SUMS}
     FROM projects project
     ${LOGGED_SUMS}
    WHERE project.id = ANY($1) AND project.company_id = $2`;
const PROJECT_TOTALS_NAME = preparedStatementName(PROJECT_TOTALS);

/** The sums behind project figures, in the request's company. */
@Injectable()
export class ProjectFiguresRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** The sums of any number of projects in one statement, keyed by project id (none for an unknown id). */
  async totals(projectIds: number[]): Promise<Map<number, ProjectTotals>> {
    if (projectIds.length === 0) {
      return new Map();
    }
    const rows = await this.scope.sql.select<ProjectTotals>(
      PROJECT_TOTALS,
      [projectIds, this.scope.companyId()],
      PROJECT_TOTALS_NAME,
    );
    return new Map(rows.map((row) => [row.project_id, row]));
  }
}
