import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { Role, type ListQueryDto, type ListAnswer } from '@platform/contracts';
import type { ProjectNameDto } from './dto/project-name.dto';
import { ProjectDetailDto, ProjectDto } from './dto/project.dto';
import { projectFigures, summarizeProject } from './project-figures';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import type { Project, ProjectColumns } from './project.entity';
import { ProjectFiguresRepository } from './project-figures.repository';
import { ProjectReadsRepository, type ProjectsOfClient } from './project-reads.repository';

const SEARCH_LIMIT = 50;

/** What a caller may see of projects, and in which shape (docs/spec/interfaces.md). */
@Injectable()
export class ProjectReads {
  constructor(
    private readonly projects: ProjectReadsRepository,
    private readonly principals: PrincipalContext,
    private readonly figures: ProjectFiguresRepository,
  ) {}

  /** The project with its estimate lines and figures: one statement, whose row carries the sums too. */
  async detail(id: number): Promise<ProjectDetailDto> {
    const project = await this.projects.detail(id, await this.ownClientId());
    if (!project) {
      throw new ResourceNotFoundError(`Project ${id}`);
    }
    return ProjectDetailDto.fromDetail(project, projectFigures(project, project, project.loggedByPosition));
  }

  async list(query: ListQueryDto): Promise<ListAnswer<ProjectDto>> {
    const page = await this.projects.list(query, await this.ownClientId());
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
    const projects = await this.projects.namesByIds(ids, await this.ownClientId());
    return projects.map((project) => ({
      id: project.id,
      name: project.name,
      client: project.client ? { id: project.client.id, name: project.client.name } : null,
    }));
  }

  /** Case-insensitive "contains", at most 50, newest first. */
  async searchByName(name: string): Promise<ProjectDto[]> {
    return this.withFigures(await this.projects.searchByName(name, await this.ownClientId(), SEARCH_LIMIT));
  }

  /** The project's columns, if the caller may read it; 404 otherwise. */
  async requireProject(id: number): Promise<ProjectColumns> {
    const project = await this.projects.findById(id, await this.ownClientId());
    if (!project) {
      throw new ResourceNotFoundError(`Project ${id}`);
    }
    return project;
  }

  private async withFigures(projects: Project[]): Promise<ProjectDto[]> {
    const totals = await this.figures.totals(projects.map((project) => project.id));
    return projects.map((project) =>
      ProjectDto.from(project, summarizeProject(project, totals.get(project.id))),
    );
  }

  /**
   * The caller's projects: the whole company, except for role 6 (Client) users, who see only the
   * projects of their own client (docs/spec/decisions.md §2) and nothing when they have none.
   */
  private async ownClientId(): Promise<ProjectsOfClient> {
    const principal = this.principals.get();
    if (principal.roleId !== Role.Client) {
      return undefined;
    }
    return principal.userId ? this.projects.clientOfUser(principal.userId) : null;
  }
}
