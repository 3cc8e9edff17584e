import { Injectable } from '@nestjs/common';
import {
  applyFilters,
  preparedStatementName,
  RequestTenantScope,
  type FilterDefinitions,
  type TenantRepository,
} from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import type { IncomeType } from '../projects/project.entity';
import { Project } from '../projects/project.entity';
import { PROJECT_FILTERS } from '../projects/project-queries';

export const FORECAST_GROUPINGS = ['client', 'project', 'pm'] as const;
export type ForecastGrouping = (typeof FORECAST_GROUPINGS)[number];

/** What a forecast reads of a project, as PROJECT_FACTS answers it (numeric columns as text). */
export interface ProjectFactsRow {
  id: number;
  start: string | null;
  end: string | null;
  income_type: IncomeType | null;
  estimated: string | null;
  estimated_time: string;
  estimated_by_position: boolean;
  estimation_by_categories: boolean;
  costs: string | null;
  /** The estimate of the project's fee. */
  fee: string | null;
  /** The project's ratecard prices (JSON numbers). */
  prices: { position_id: number; price: number }[];
  position_lines: { position_id: number; estimated_hours: number }[];
  category_lines: { category_id: number; estimated_hours: number }[];
}

export interface ApprovedHoursRow {
  project_id: number;
  date: string;
  position_id: number | null;
  hours: number;
}

/** A person's current position (`user_id` set), or a position (`user_id` null), and its category. */
export interface PositionDirectoryRow {
  user_id: number | null;
  position_id: number | null;
  category_id: number | null;
}

/** A project of a report page, with the names of what it is grouped by. */
export interface GroupedProjectRow {
  id: number;
  name: string;
  client_id: number;
  pm_id: number | null;
  /** Null when the client was deleted. */
  client_name: string | null;
  /** Null without a manager, or when the manager was deleted. */
  pm_name: string | null;
}

/** The filters of the forecast report: the projects list's, and `project_ids`. */
const REPORT_FILTERS: FilterDefinitions = {
  client_id: PROJECT_FILTERS.client_id,
  pm_id: PROJECT_FILTERS.pm_id,
  status: PROJECT_FILTERS.status,
  archived: PROJECT_FILTERS.archived,
  project_ids: PROJECT_FILTERS.id,
};

const GROUP_COLUMNS: Readonly<Record<ForecastGrouping, string>> = {
  client: 'project.client_id',
  project: 'project.id',
  pm: 'project.pm_id',
};

const PROJECT_FACTS = `SELECT project.id, project.start::text AS start, project."end"::text AS "end",
       project.income_type, project.estimated, project.estimated_time,
       project.estimated_by_position, project.estimation_by_categories,
       (SELECT sum(cost.cost) FROM project_costs cost
         WHERE cost.project_id = project.id AND cost.company_id = project.company_id) AS costs,
       (SELECT fee.estimate FROM fees fee
         WHERE fee.id = project.fee_id AND fee.company_id = project.company_id) AS fee,
       (SELECT coalesce(json_agg(json_build_object('position_id', price.position_id, 'price', price.price)), '[]')
          FROM ratecard_prices price
         WHERE price.ratecard_id = project.user_positions_header_id
           AND price.company_id = project.company_id) AS prices,
       (SELECT coalesce(json_agg(json_build_object('position_id', line.position_id,
                                                   'estimated_hours', line.estimated_hours)), '[]')
          FROM project_positions line
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS position_lines,
       (SELECT coalesce(json_agg(json_build_object('category_id', line.category_id,
                                                   'estimated_hours', line.estimated_hours)), '[]')
          FROM project_categories line
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS category_lines
  FROM projects project
 WHERE project.id = ANY($1) AND project.company_id = $2 AND project.deleted_at IS NULL
 ORDER BY project.id`;
const PROJECT_FACTS_NAME = preparedStatementName(PROJECT_FACTS);

// Only approved time is actual: drafts and submitted weeks may still change (issue 40).
const APPROVED_HOURS = `SELECT entry.project_id, entry.date::text AS date, entry.user_position_id AS position_id,
       sum(entry.hours)::float8 AS hours
  FROM time_entries entry
 WHERE entry.project_id = ANY($1) AND entry.company_id = $2 AND entry.status = 'approved'
 GROUP BY entry.project_id, entry.date, entry.user_position_id`;
const APPROVED_HOURS_NAME = preparedStatementName(APPROVED_HOURS);

// People by their current position (deleted ones too: their planned hours still count).
const POSITION_DIRECTORY = `SELECT person.id AS user_id, person.user_position_id AS position_id, position.category_id
  FROM users person
  LEFT JOIN positions position
    ON position.id = person.user_position_id AND position.company_id = person.company_id
 WHERE person.id = ANY($1) AND person.company_id = $3
UNION ALL
SELECT NULL, position.id, position.category_id
  FROM positions position
 WHERE position.id = ANY($2) AND position.company_id = $3`;
const POSITION_DIRECTORY_NAME = preparedStatementName(POSITION_DIRECTORY);

/** The reads of the forecasts, in the request's company. */
@Injectable()
export class ForecastRepository {
  private readonly projects: TenantRepository<Project>;

  constructor(private readonly scope: RequestTenantScope) {
    this.projects = scope.repository(Project);
  }

  /** The forecast's facts of those of the projects that exist and are not deleted, by id. */
  projectFacts(ids: readonly number[]): Promise<ProjectFactsRow[]> {
    return this.scope.sql.select<ProjectFactsRow>(
      PROJECT_FACTS,
      [ids, this.scope.companyId()],
      PROJECT_FACTS_NAME,
    );
  }

  /** The projects' approved hours per project, day and position. */
  approvedHours(projectIds: readonly number[]): Promise<ApprovedHoursRow[]> {
    return this.scope.sql.select<ApprovedHoursRow>(
      APPROVED_HOURS,
      [projectIds, this.scope.companyId()],
      APPROVED_HOURS_NAME,
    );
  }

  /** The current positions of the people, and the categories of those and of the positions. */
  positionDirectory(
    userIds: readonly number[],
    positionIds: readonly number[],
  ): Promise<PositionDirectoryRow[]> {
    return this.scope.sql.select<PositionDirectoryRow>(
      POSITION_DIRECTORY,
      [userIds, positionIds, this.scope.companyId()],
      POSITION_DIRECTORY_NAME,
    );
  }

  /**
   * A page of the keys the filtered projects group under, ascending, the null key (projects without
   * a manager) last: at most `limit`, after `after` when it is given.
   */
  async groupKeys(
    groupBy: ForecastGrouping,
    filters: string | undefined,
    after: number | null | undefined,
    limit: number,
  ): Promise<(number | null)[]> {
    const column = GROUP_COLUMNS[groupBy];
    const query = this.filtered(filters)
      .select(column, 'key')
      .distinct(true)
      .orderBy(column, 'ASC', 'NULLS LAST')
      .limit(limit);
    if (after === null) {
      // Nothing follows the null key, which comes last.
      query.andWhere('false');
    } else if (after !== undefined) {
      query.andWhere(`(${column} > :after${groupBy === 'pm' ? ` OR ${column} IS NULL` : ''})`, { after });
    }
    const rows = await this.projects.run(() => query.getRawMany<{ key: number | null }>());
    return rows.map((row) => row.key);
  }

  /** The filtered projects grouped under any of `keys`, by id, with the names of their client and manager. */
  async projectsOfGroups(
    groupBy: ForecastGrouping,
    filters: string | undefined,
    keys: readonly (number | null)[],
  ): Promise<GroupedProjectRow[]> {
    const column = GROUP_COLUMNS[groupBy];
    const ids = keys.filter((key): key is number => key !== null);
    const of = [
      ...(ids.length > 0 ? [`${column} IN (:...keys)`] : []),
      ...(keys.includes(null) ? [`${column} IS NULL`] : []),
    ];
    if (of.length === 0) {
      return [];
    }
    const query = this.filtered(filters)
      .leftJoin('project.client', 'client')
      .leftJoin('project.pm', 'pm')
      .select('project.id', 'id')
      .addSelect('project.name', 'name')
      .addSelect('project.client_id', 'client_id')
      .addSelect('project.pm_id', 'pm_id')
      .addSelect('client.name', 'client_name')
      .addSelect(
        `CASE WHEN pm.id IS NOT NULL THEN concat_ws(' ', pm.first_name, pm.last_name) END`,
        'pm_name',
      )
      .andWhere(`(${of.join(' OR ')})`, { keys: ids })
      .orderBy('project.id', 'ASC');
    return this.projects.run(() => query.getRawMany<GroupedProjectRow>());
  }

  /** The company's projects that are not deleted, narrowed by the report's `filters` (400 naming them). */
  private filtered(filters: string | undefined): SelectQueryBuilder<Project> {
    const query = this.projects.queryBuilder('project').andWhere('project.deleted_at IS NULL');
    return applyFilters(query, 'project', filters, REPORT_FILTERS);
  }
}
