import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { preparedStatementName, RequestTenantScope, type TenantRepository } from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import { User } from '../users/user.entity';
import type { LoggedHoursByPosition, ProjectSums } from './project-figures';
import { LOGGED_HOURS_BY_POSITION, LOGGED_SUMS, PROJECT_SUMS } from './project-figures.repository';
import { PROJECT_FILTERS, withRelations } from './project-queries';
import { containsPattern } from './project-rules';
import { Project, type ProjectColumns } from './project.entity';

/**
 * Whose projects a read may answer: the whole company's (undefined), one client's (its id), or
 * none (null). Role 6 (Client) users read only their own client's (docs/spec/decisions.md §2).
 */
export type ProjectsOfClient = number | null | undefined;

/** A project with everything its detail shows, as one row of PROJECT_DETAIL. */
export interface ProjectDetailRow extends ProjectColumns, ProjectSums {
  /** Null when the client was deleted. */
  client: { id: number; name: string; archived: boolean } | null;
  /** Null without a manager, or when the manager was deleted. */
  pm: { id: number; firstName: string; lastName: string; email: string; roleId: number } | null;
  /** Null without a ratecard, or when it was deleted. */
  ratecard: {
    id: number;
    name: string;
    originalName: string;
    percent: number;
    currencyId: number;
    linkedToBasePrice: boolean;
  } | null;
  /** In the order they were added; `positionName` is null once the position is deleted. */
  positionLines: {
    id: number;
    positionId: number;
    projectId: number;
    estimatedHours: number;
    positionName: string | null;
  }[];
  /** In the order they were added. */
  categoryLines: { id: number; categoryId: number; estimatedHours: number }[];
  loggedByPosition: LoggedHoursByPosition[];
}

/** A project as the planner names it (NAMES_BY_IDS); `client` is null when the client was deleted. */
export interface ProjectNameRow {
  id: number;
  name: string;
  client: { id: number; name: string } | null;
}

// Fixed texts, prepared once per connection. The project's columns come under the entity's property
// names: a row is then the plain object of a Project's columns, which the read shape maps and a
// write saves back. Relations and estimate lines arrive as JSON (numbers in it are numbers), and a
// soft-deleted relation is left out exactly as TypeORM's joins left it out.
const PROJECT_COLUMNS = `project.id, project.company_id AS "companyId", project.client_id AS "clientId",
       project.pm_id AS "pmId", project.created_by AS "createdBy", project.template_id AS "templateId",
       project.brand_id AS "brandId", project.product_id AS "productId", project.fee_id AS "feeId",
       project.contract_id AS "contractId", project.user_positions_header_id AS "userPositionsHeaderId",
       project.name, project.brief, project.health, project.status, project.start, project.end,
       project.estimated_time AS "estimatedTime", project.archived, project.billable,
       project.income_type AS "incomeType", project.estimated, project.labels,
       project.estimated_by_position AS "estimatedByPosition",
       project.estimation_by_categories AS "estimationByCategories",
       project.estimated_by_hourly_rates AS "estimatedByHourlyRates", project.exchange,
       project.currency_change_amount AS "currencyChangeAmount", project.created_at AS "createdAt",
       project.updated_at AS "updatedAt", project.deleted_at AS "deletedAt", project.version`;

// $3 is the one client whose projects the caller may read, or null for the whole company's.
const VISIBLE_PROJECT = `project.id = $1 AND project.company_id = $2
   AND ($3::int IS NULL OR project.client_id = $3) AND project.deleted_at IS NULL`;

const PROJECT_BY_ID = `SELECT ${PROJECT_COLUMNS}
  FROM projects project
 WHERE ${VISIBLE_PROJECT}`;
const PROJECT_BY_ID_NAME = preparedStatementName(PROJECT_BY_ID);

const PROJECT_DETAIL = `SELECT ${PROJECT_COLUMNS},
       CASE WHEN client.id IS NOT NULL
            THEN json_build_object('id', client.id, 'name', client.name, 'archived', client.archived)
       END AS client,
       CASE WHEN pm.id IS NOT NULL
            THEN json_build_object('id', pm.id, 'firstName', pm.first_name, 'lastName', pm.last_name,
                                   'email', pm.email, 'roleId', pm.role_id)
       END AS pm,
       CASE WHEN ratecard.id IS NOT NULL
            THEN json_build_object('id', ratecard.id, 'name', ratecard.name,
                                   'originalName', ratecard.original_name, 'percent', ratecard.percent,
                                   'currencyId', ratecard.currency_id,
                                   'linkedToBasePrice', ratecard.linked_to_base_price)
       END AS ratecard,
       (SELECT coalesce(json_agg(json_build_object('id', line.id, 'positionId', line.position_id,
                                                   'projectId', line.project_id,
                                                   'estimatedHours', line.estimated_hours,
                                                   'positionName', position.name) ORDER BY line.id), '[]')
          FROM project_positions line
          LEFT JOIN positions position ON position.id = line.position_id AND position.deleted_at IS NULL
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS "positionLines",
       (SELECT coalesce(json_agg(json_build_object('id', line.id, 'categoryId', line.category_id,
                                                   'estimatedHours', line.estimated_hours)
                                 ORDER BY line.id), '[]')
          FROM project_categories line
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS "categoryLines",
       ${PROJECT_SUMS},
       ${LOGGED_HOURS_BY_POSITION} AS "loggedByPosition"
  FROM projects project
  LEFT JOIN clients client ON client.id = project.client_id AND client.deleted_at IS NULL
  LEFT JOIN users pm ON pm.id = project.pm_id AND pm.deleted_at IS NULL
  LEFT JOIN ratecards ratecard
    ON ratecard.id = project.user_positions_header_id AND ratecard.deleted_at IS NULL
  ${LOGGED_SUMS}
 WHERE ${VISIBLE_PROJECT}`;
const PROJECT_DETAIL_NAME = preparedStatementName(PROJECT_DETAIL);

const NAMES_BY_IDS = `SELECT project.id, project.name,
       CASE WHEN client.id IS NOT NULL THEN json_build_object('id', client.id, 'name', client.name)
       END AS client
  FROM projects project
  LEFT JOIN clients client ON client.id = project.client_id AND client.deleted_at IS NULL
 WHERE project.id = ANY($1) AND project.company_id = $2 AND ($3::int IS NULL OR project.client_id = $3)
   AND project.deleted_at IS NULL
 ORDER BY project.id`;
const NAMES_BY_IDS_NAME = preparedStatementName(NAMES_BY_IDS);

/** The reads of projects and their estimate lines in the request's company. */
@Injectable()
export class ProjectReadsRepository {
  private readonly projects: TenantRepository<Project>;

  constructor(private readonly scope: RequestTenantScope) {
    this.projects = scope.repository(Project);
  }

  /** The project's own columns, if it is among `of`'s. */
  async findById(id: number, of: ProjectsOfClient): Promise<ProjectColumns | null> {
    if (of === null) {
      return null;
    }
    const [project] = await this.scope.sql.select<ProjectColumns>(
      PROJECT_BY_ID,
      [id, this.scope.companyId(), of ?? null],
      PROJECT_BY_ID_NAME,
    );
    return project ?? null;
  }

  /**
   * The project with its client, manager, ratecard, estimate lines and the sums of its figures, if
   * it is among `of`'s: one statement, so a project page view is one round trip.
   */
  async detail(id: number, of: ProjectsOfClient): Promise<ProjectDetailRow | null> {
    if (of === null) {
      return null;
    }
    const [project] = await this.scope.sql.select<ProjectDetailRow>(
      PROJECT_DETAIL,
      [id, this.scope.companyId(), of ?? null],
      PROJECT_DETAIL_NAME,
    );
    return project ?? null;
  }

  /** Id, name and client of those of the projects that are among `of`'s, by id. */
  async namesByIds(ids: number[], of: ProjectsOfClient): Promise<ProjectNameRow[]> {
    if (of === null) {
      return [];
    }
    return this.scope.sql.select<ProjectNameRow>(
      NAMES_BY_IDS,
      [ids, this.scope.companyId(), of ?? null],
      NAMES_BY_IDS_NAME,
    );
  }

  /** A page of `of`'s projects with client and manager (docs/spec/decisions.md §5). */
  list(query: ListQueryDto, of: ProjectsOfClient): Promise<ListAnswer<Project>> {
    return this.projects.paginate(this.visible(of), 'project', query, PROJECT_FILTERS, (project) => project);
  }

  /** `of`'s projects whose name contains `name` (case-insensitive), at most `limit`, newest first. */
  searchByName(name: string, of: ProjectsOfClient, limit: number): Promise<Project[]> {
    return this.projects.many(
      this.visible(of)
        .andWhere('project.name ILIKE :pattern', { pattern: containsPattern(name) })
        .orderBy('project.id', 'DESC')
        .take(limit),
    );
  }

  /** The client a user is attached to (role 6), or null: none, or no such user in the company. */
  async clientOfUser(userId: number): Promise<number | null> {
    const user = await this.scope.repository(User).findById(userId);
    return user?.clientId ?? null;
  }

  private visible(of: ProjectsOfClient): SelectQueryBuilder<Project> {
    const query = withRelations(this.projects.queryBuilder('project'));
    if (of === undefined) {
      return query;
    }
    return of === null
      ? query.andWhere('false')
      : query.andWhere('project.client_id = :ownClientId', { ownClientId: of });
  }
}
