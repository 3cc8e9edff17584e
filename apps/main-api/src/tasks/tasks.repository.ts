import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';
import { TaskAttachment } from './task-attachment.entity';
import { TaskStatus } from './task-status';
import { Task } from './task.entity';

/** Tasks and their attachments in the request's company, and the rows a task refers to. */
@Injectable()
export class TasksRepository extends FeatureRepository<Task> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Task,
      alias: 'task',
      filters: {
        project_id: { kind: 'integer', column: 'project_id' },
        status: { kind: 'enum', column: 'status', values: Object.values(TaskStatus) },
        assignee_id: { kind: 'integer', column: 'assignee_id' },
        name: { kind: 'text', column: 'name' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Task ${id}`),
    });
  }

  addAttachment(columns: DeepPartial<TaskAttachment>): Promise<TaskAttachment> {
    return this.scope.repository(TaskAttachment).create(columns);
  }

  /** The task's project, by the body's `project_id` (400 naming it when the company has none). */
  async requireProject(id: number): Promise<void> {
    await this.scope.repository(Project).requireReference(id, 'project_id');
  }

  /** Id and project of those of the tasks the company has (deleted ones left out). */
  projectsOf(ids: readonly number[]): Promise<{ id: number; project_id: number }[]> {
    return this.scope.sql.select<{ id: number; project_id: number }>(
      `SELECT id, project_id FROM tasks
        WHERE company_id = $1 AND id = ANY($2::integer[]) AND deleted_at IS NULL ORDER BY id`,
      [this.scope.companyId(), ids],
    );
  }

  /** The task's assignee, by the body's `assignee_id` (400 naming it when the company has none). */
  async requireAssignee(id: number): Promise<void> {
    await this.scope.repository(User).requireReference(id, 'assignee_id');
  }
}
