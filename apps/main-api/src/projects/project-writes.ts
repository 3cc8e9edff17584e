import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { ProjectStatus } from '@platform/contracts';
import { DataSource, In, Not, type EntityManager } from 'typeorm';
import { TimeEntry } from '../hours/time-entry.entity';
import type { CreateProjectDto, EstimateItemDto, UpdateProjectDto } from './dto/project-write.dto';
import { ProjectCategory, ProjectPosition } from './project-estimate-line.entities';
import { ProjectReads } from './project-reads';
import { ProjectReferences } from './project-references';
import {
  applyProjectFields,
  checkEstimationAndIncome,
  checkProjectDates,
  checkUniqueLines,
  estimateMode,
  ratecardField,
} from './project-rules';
import { Project } from './project.entity';

/** Creating and changing projects with their estimate lines (docs/spec/decisions.md §8). */
@Injectable()
export class ProjectWrites {
  constructor(
    private readonly principals: PrincipalContext,
    private readonly dataSource: DataSource,
    private readonly reads: ProjectReads,
    private readonly references: ProjectReferences,
  ) {}

  async create(body: CreateProjectDto): Promise<number> {
    const principal = this.principals.get();
    const draft = this.dataSource.getRepository(Project).create({
      companyId: principal.companyId,
      createdBy: principal.userId ?? null,
      name: body.name,
      clientId: body.client_id,
      brief: body.brief ?? '',
      status: ProjectStatus.Active,
      labels: [],
    });
    applyProjectFields(draft, body);
    await this.validate(draft, body);
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.getRepository(Project).save(draft);
      await this.saveEstimates(manager, saved, body);
      return saved.id;
    });
  }

  async update(id: number, body: UpdateProjectDto): Promise<number> {
    const project = await this.reads.requireProject(id);
    applyProjectFields(project, body);
    await this.validate(project, body);
    await this.dataSource.transaction(async (manager) => {
      await manager
        .getRepository(Project)
        .save({ ...project, client: undefined, pm: undefined, ratecard: undefined });
      await this.saveEstimates(manager, project, body);
    });
    return id;
  }

  /**
   * The order decides which error a body with several faults gets (and is what clients see today):
   * dates and references (400 naming the field), the business rules (422 AC004), then estimate lines.
   */
  private async validate(project: Project, body: UpdateProjectDto): Promise<void> {
    checkProjectDates(project);
    await this.references.requireOfProject(project, ratecardField(body));
    checkEstimationAndIncome(project);
    await this.references.requireOfEstimateLines(body);
  }

  /**
   * Upserts the estimate lines sent. On update, a position already on the project and absent from
   * `users_positions` gets 0 estimated hours and is soft-deleted when no hours were logged against it
   * (docs/spec/interfaces.md). The project's estimated_time follows the active mode's sum.
   */
  private async saveEstimates(
    manager: EntityManager,
    project: Project,
    body: UpdateProjectDto,
  ): Promise<void> {
    const companyId = project.companyId;
    if (body.users_positions) {
      await this.upsertLines(
        manager,
        ProjectPosition,
        'positionId',
        project.id,
        companyId,
        body.users_positions,
      );
    }
    if (body.categories) {
      await this.upsertLines(manager, ProjectCategory, 'categoryId', project.id, companyId, body.categories);
    }
    const mode = estimateMode(project);
    if (mode) {
      const [{ total }] = await manager.query<{ total: string | null }[]>(
        `SELECT sum(estimated_hours) AS total FROM ${mode === 'positions' ? 'project_positions' : 'project_categories'}
         WHERE project_id = $1 AND company_id = $2 AND deleted_at IS NULL`,
        [project.id, companyId],
      );
      await manager
        .getRepository(Project)
        .update({ id: project.id, companyId }, { estimatedTime: total ?? '0' });
    }
  }

  private async upsertLines(
    manager: EntityManager,
    entity: typeof ProjectPosition | typeof ProjectCategory,
    key: 'positionId' | 'categoryId',
    projectId: number,
    companyId: number,
    items: EstimateItemDto[],
  ): Promise<void> {
    checkUniqueLines(items, key === 'positionId' ? 'users_positions' : 'categories');
    const ids = items.map((item) => item.id);
    const repository = manager.getRepository<ProjectPosition | ProjectCategory>(entity);
    if (items.length > 0) {
      // One statement for every line sent (an existing line, even removed, is updated and restored).
      await repository
        .createQueryBuilder()
        .insert()
        .values(
          items.map((item) => ({
            companyId,
            projectId,
            [key]: item.id,
            estimatedHours: String(item.estimated_time ?? 0),
            deletedAt: null,
          })),
        )
        .orUpdate(
          ['estimated_hours', 'deleted_at'],
          ['project_id', key === 'positionId' ? 'position_id' : 'category_id'],
        )
        .execute();
    }
    // Lines absent from the list: no estimate any more; a position line is removed entirely
    // unless hours were logged against that position on this project.
    const absent = { projectId, companyId, ...(ids.length > 0 ? { [key]: Not(In(ids)) } : {}) };
    await repository.update(absent, { estimatedHours: '0' });
    if (key === 'categoryId') {
      await repository.softDelete(absent);
      return;
    }
    const logged = await manager
      .getRepository(TimeEntry)
      .createQueryBuilder('entry')
      .select('DISTINCT entry.user_position_id', 'position_id')
      .where(
        'entry.project_id = :projectId AND entry.company_id = :companyId AND entry.user_position_id IS NOT NULL',
        { projectId, companyId },
      )
      .getRawMany<{ position_id: number }>();
    const keep = [...ids, ...logged.map((row) => row.position_id)];
    await repository.softDelete({
      projectId,
      companyId,
      ...(keep.length > 0 ? { positionId: Not(In(keep)) } : {}),
    });
  }
}
