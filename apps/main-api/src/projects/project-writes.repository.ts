import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantUnitOfWork } from '@platform/database';
import { In, Not } from 'typeorm';
import type { EstimateItemDto, UpdateProjectDto } from './dto/project-write.dto';
import { ProjectCategory, ProjectPosition } from './project-estimate-line.entities';
import { estimateMode } from './project-rules';
import { Project, type ProjectColumns } from './project.entity';

/**
 * A project saved with its estimate lines, in one transaction of the request's scope. The body was
 * checked before (ProjectWrites), so a transaction here only writes.
 */
@Injectable()
export class ProjectWritesRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** Saves a new project (in the scope's company) and its estimate lines; answers its id. */
  insert(draft: Project, body: UpdateProjectDto): Promise<number> {
    return this.scope.transaction(async (unit) => {
      const saved = await unit.repository(Project).create(draft);
      await this.saveEstimates(unit, saved, body);
      return saved.id;
    });
  }

  /** Saves the changes of a project read in this scope, and its estimate lines. */
  async update(project: ProjectColumns, body: UpdateProjectDto): Promise<void> {
    await this.scope.transaction(async (unit) => {
      await unit.repository(Project).assertVersionUnderLock(project, `Project ${project.id}`);
      await unit.repository(Project).save(project);
      await this.saveEstimates(unit, project, body);
    });
  }

  /**
   * Upserts the estimate lines sent. On update, a position already on the project and absent from
   * `users_positions` gets 0 estimated hours and is soft-deleted when no hours were logged against it
   * (docs/spec/interfaces.md). The project's estimated_time follows the active mode's sum.
   */
  private async saveEstimates(
    unit: TenantUnitOfWork,
    project: ProjectColumns,
    body: UpdateProjectDto,
  ): Promise<void> {
    const companyId = unit.companyId();
    if (body.users_positions) {
      await this.upsertLines(unit, ProjectPosition, 'positionId', project.id, body.users_positions);
    }
    if (body.categories) {
      await this.upsertLines(unit, ProjectCategory, 'categoryId', project.id, body.categories);
    }
    const mode = estimateMode(project);
    if (mode) {
      const [{ total }] = await unit.sql.select<{ total: string | null }>(
        `SELECT sum(estimated_hours) AS total FROM ${mode === 'positions' ? 'project_positions' : 'project_categories'}
         WHERE project_id = $1 AND company_id = $2 AND deleted_at IS NULL`,
        [project.id, companyId],
      );
      await unit.repository(Project).updateWhere({ id: project.id }, { estimatedTime: total ?? '0' });
    }
  }

  private async upsertLines(
    unit: TenantUnitOfWork,
    entity: typeof ProjectPosition | typeof ProjectCategory,
    key: 'positionId' | 'categoryId',
    projectId: number,
    items: EstimateItemDto[],
  ): Promise<void> {
    const ids = items.map((item) => item.id);
    const lines = unit.repository<ProjectPosition | ProjectCategory>(entity);
    // One statement for every line sent (an existing line, even removed, is updated and restored).
    await lines.upsert(
      items.map((item) => ({
        projectId,
        [key]: item.id,
        estimatedHours: String(item.estimated_time ?? 0),
        deletedAt: null,
      })),
      ['projectId', key],
    );
    // Lines absent from the list: no estimate any more; a position line is removed entirely
    // unless hours were logged against that position on this project.
    const absent = { projectId, ...(ids.length > 0 ? { [key]: Not(In(ids)) } : {}) };
    await lines.updateWhere(absent, { estimatedHours: '0' });
    if (key === 'categoryId') {
      await lines.softDeleteWhere(absent);
      return;
    }
    const logged = await unit.sql.select<{ position_id: number }>(
      `SELECT DISTINCT entry.user_position_id AS position_id FROM time_entries entry
        WHERE entry.company_id = $1 AND entry.project_id = $2 AND entry.user_position_id IS NOT NULL`,
      [unit.companyId(), projectId],
    );
    const keep = [...ids, ...logged.map((row) => row.position_id)];
    await unit
      .repository(ProjectPosition)
      .softDeleteWhere({ projectId, ...(keep.length > 0 ? { positionId: Not(In(keep)) } : {}) });
  }
}
