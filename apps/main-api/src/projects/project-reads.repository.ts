import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { RequestTenantScope, type TenantRead, type TenantRepository } from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import { User } from '../users/user.entity';
import { ProjectCategory, ProjectPosition } from './project-estimate-line.entities';
import { PROJECT_FILTERS, withClientName, withRelations } from './project-queries';
import { containsPattern } from './project-rules';
import { Project } from './project.entity';

/**
 * Whose projects a read may answer: the whole company's (undefined), one client's (its id), or
 * none (null). Role 6 (Client) users read only their own client's (docs/spec/decisions.md §2).
 */
export type ProjectsOfClient = number | null | undefined;

/** The reads of projects and their estimate lines in the request's company. */
@Injectable()
export class ProjectReadsRepository {
  private readonly projects: TenantRepository<Project>;
  // The reads of every project page view, built once (CompiledRead): building their SQL cost more
  // than running it (bench/README.md).
  private readonly projectById: TenantRead<Project, { id: number }>;
  private readonly ownClientProjectById: TenantRead<Project, { id: number; ownClientId: number }>;
  private readonly projectNamesByIds: TenantRead<Project, { ids: number[] }>;
  private readonly ownClientProjectNamesByIds: TenantRead<Project, { ids: number[]; ownClientId: number }>;
  private readonly estimatePositions: TenantRead<ProjectPosition, { projectId: number }>;
  private readonly estimateCategories: TenantRead<ProjectCategory, { projectId: number }>;

  constructor(private readonly scope: RequestTenantScope) {
    this.projects = scope.repository(Project);
    this.projectById = this.projects.compile('project', ['id'], (query) =>
      withRelations(query, { ratecard: true }).andWhere('project.id = :id'),
    );
    this.ownClientProjectById = this.projects.compile('project', ['id', 'ownClientId'], (query) =>
      withRelations(query, { ratecard: true })
        .andWhere('project.id = :id')
        .andWhere('project.client_id = :ownClientId'),
    );
    this.projectNamesByIds = this.projects.compile('project', ['ids'], (query) =>
      withClientName(query).andWhere('project.id = ANY(:ids)'),
    );
    this.ownClientProjectNamesByIds = this.projects.compile('project', ['ids', 'ownClientId'], (query) =>
      withClientName(query).andWhere('project.id = ANY(:ids)').andWhere('project.client_id = :ownClientId'),
    );
    this.estimatePositions = scope
      .repository(ProjectPosition)
      .compile('line', ['projectId'], (query) =>
        query
          .leftJoinAndSelect('line.position', 'position')
          .andWhere('line.project_id = :projectId')
          .orderBy('line.id', 'ASC'),
      );
    this.estimateCategories = scope
      .repository(ProjectCategory)
      .compile('line', ['projectId'], (query) =>
        query.andWhere('line.project_id = :projectId').orderBy('line.id', 'ASC'),
      );
  }

  /** The project with its client, manager and ratecard, if it is among `of`'s. */
  async findById(id: number, of: ProjectsOfClient): Promise<Project | null> {
    if (of === null) {
      return null;
    }
    return of === undefined
      ? this.projectById.one({ id })
      : this.ownClientProjectById.one({ id, ownClientId: of });
  }

  /** Id, name and client of those of the projects that are among `of`'s, by id. */
  async namesByIds(ids: number[], of: ProjectsOfClient): Promise<Project[]> {
    if (of === null) {
      return [];
    }
    return of === undefined
      ? this.projectNamesByIds.many({ ids })
      : this.ownClientProjectNamesByIds.many({ ids, ownClientId: of });
  }

  /** The project's estimate lines by position, with the position, in the order they were added. */
  positionLines(projectId: number): Promise<ProjectPosition[]> {
    return this.estimatePositions.many({ projectId });
  }

  /** The project's estimate lines by position category, in the order they were added. */
  categoryLines(projectId: number): Promise<ProjectCategory[]> {
    return this.estimateCategories.many({ projectId });
  }

  /** A page of `of`'s projects with client and manager (docs/spec/decisions.md §5). */
  list(query: ListQueryDto, of: ProjectsOfClient): Promise<Paginated<Project> | Project[]> {
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
    const query = withRelations(this.projects.queryBuilder('project'), { ratecard: false });
    if (of === undefined) {
      return query;
    }
    return of === null
      ? query.andWhere('false')
      : query.andWhere('project.client_id = :ownClientId', { ownClientId: of });
  }
}
