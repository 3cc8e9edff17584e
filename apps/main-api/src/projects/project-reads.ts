import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { Role, type ListQueryDto, type Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type TenantRead, type TenantRepository } from '@platform/database';
import { User } from '../users/user.entity';
import type { ProjectNameDto } from './dto/project-name.dto';
import { ProjectDetailDto, ProjectDto } from './dto/project.dto';
import { ProjectCategory, ProjectPosition } from './project-estimate-line.entities';
import { projectFigures, summarizeProject } from './project-figures';
import { PROJECT_FILTERS, withClientName, withRelations } from './project-queries';
import { containsPattern } from './project-rules';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Project } from './project.entity';
import { ProjectsRepository } from './projects.repository';

const SEARCH_LIMIT = 50;

/** What a caller may see of projects, and in which shape (docs/spec/interfaces.md). */
@Injectable()
export class ProjectReads {
  private readonly projects: TenantRepository<Project>;
  // The reads of every project page view, built once (CompiledRead): building their SQL cost more
  // than running it (bench/README.md).
  private readonly projectById: TenantRead<Project, { id: number }>;
  private readonly ownClientProjectById: TenantRead<Project, { id: number; ownClientId: number }>;
  private readonly projectNamesByIds: TenantRead<Project, { ids: number[] }>;
  private readonly ownClientProjectNamesByIds: TenantRead<Project, { ids: number[]; ownClientId: number }>;
  private readonly estimatePositions: TenantRead<ProjectPosition, { projectId: number }>;
  private readonly estimateCategories: TenantRead<ProjectCategory, { projectId: number }>;

  constructor(
    private readonly repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
    private readonly repository: ProjectsRepository,
  ) {
    this.projects = repositories.for(Project);
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
    this.estimatePositions = repositories
      .for(ProjectPosition)
      .compile('line', ['projectId'], (query) =>
        query
          .leftJoinAndSelect('line.position', 'position')
          .andWhere('line.project_id = :projectId')
          .orderBy('line.id', 'ASC'),
      );
    this.estimateCategories = repositories
      .for(ProjectCategory)
      .compile('line', ['projectId'], (query) =>
        query.andWhere('line.project_id = :projectId').orderBy('line.id', 'ASC'),
      );
  }

  /** One round trip: the project, its estimate lines and its figures are read side by side. */
  async detail(id: number): Promise<ProjectDetailDto> {
    const [project, positions, categories, totals, logged] = await Promise.all([
      this.requireProject(id),
      this.estimatePositions.many({ projectId: id }),
      this.estimateCategories.many({ projectId: id }),
      this.repository.totals([id]),
      this.repository.loggedHoursByPosition(id),
    ]);
    return ProjectDetailDto.fromDetail(
      project,
      positions,
      categories,
      projectFigures(project, totals.get(id), logged),
    );
  }

  async list(query: ListQueryDto): Promise<Paginated<ProjectDto> | ProjectDto[]> {
    const page = await this.projects.paginate(
      await this.visible(),
      'project',
      query,
      PROJECT_FILTERS,
      (project) => project,
    );
    if (Array.isArray(page)) {
      return this.withFigures(page);
    }
    return { ...page, data: await this.withFigures(page.data) };
  }

  /**
   * Id, name and client of those projects the caller may read, for the planner's reports: no
   * figures, which a list computes for every project and the planner never shows.
   */
  async namesByIds(ids: number[]): Promise<ProjectNameDto[]> {
    const ownClientId = await this.ownClientId();
    if (ownClientId === null) {
      return [];
    }
    const projects = await (ownClientId === undefined
      ? this.projectNamesByIds.many({ ids })
      : this.ownClientProjectNamesByIds.many({ ids, ownClientId }));
    return projects.map((project) => ({
      id: project.id,
      name: project.name,
      client: project.client ? { id: project.client.id, name: project.client.name } : null,
    }));
  }

  /** Case-insensitive "contains", at most 50, newest first. */
  async searchByName(name: string): Promise<ProjectDto[]> {
    const projects = await this.projects.many(
      (await this.visible())
        .andWhere('project.name ILIKE :pattern', { pattern: containsPattern(name) })
        .orderBy('project.id', 'DESC')
        .take(SEARCH_LIMIT),
    );
    return this.withFigures(projects);
  }

  async requireProject(id: number): Promise<Project> {
    const ownClientId = await this.ownClientId();
    const project =
      ownClientId === undefined
        ? await this.projectById.one({ id })
        : ownClientId === null
          ? null
          : await this.ownClientProjectById.one({ id, ownClientId });
    if (!project) {
      throw new ResourceNotFoundError(`Project ${id}`);
    }
    return project;
  }

  private async withFigures(projects: Project[]): Promise<ProjectDto[]> {
    const totals = await this.repository.totals(projects.map((project) => project.id));
    return projects.map((project) =>
      ProjectDto.from(project, summarizeProject(project, totals.get(project.id))),
    );
  }

  /**
   * The caller's projects: the whole company, except for role 6 (Client) users, who see only the
   * projects of their own client (docs/spec/decisions.md §2) and nothing when they have none.
   */
  private async visible() {
    const query = withRelations(this.projects.queryBuilder('project'), { ratecard: false });
    const ownClientId = await this.ownClientId();
    if (ownClientId === undefined) {
      return query;
    }
    return ownClientId === null
      ? query.andWhere('false')
      : query.andWhere('project.client_id = :ownClientId', { ownClientId });
  }

  /** For a role 6 (Client) user, their client's id (null without one); undefined for other roles. */
  private async ownClientId(): Promise<number | null | undefined> {
    const principal = this.principals.get();
    if (principal.roleId !== Role.Client) {
      return undefined;
    }
    const user = principal.userId ? await this.repositories.for(User).findById(principal.userId) : null;
    return user?.clientId ?? null;
  }
}
