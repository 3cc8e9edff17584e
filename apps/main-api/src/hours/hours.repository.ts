import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Position } from '../positions/position.entity';
import { Project } from '../projects/project.entity';
import { Task } from '../tasks/task.entity';
import { User } from '../users/user.entity';
import { TimeEntry } from './time-entry.entity';

/**
 * Time entries in the request's company, and the rows an entry refers to: each reference check
 * answers 400 naming the body's field when the company has no such row.
 */
@Injectable()
export class HoursRepository extends FeatureRepository<TimeEntry> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: TimeEntry,
      alias: 'entry',
      filters: {
        user_id: { kind: 'integer', column: 'user_id' },
        project_id: { kind: 'integer', column: 'project_id' },
        task_id: { kind: 'integer', column: 'task_id' },
        user_position_id: { kind: 'integer', column: 'user_position_id' },
        date: { kind: 'date', column: 'date' },
        hours: { kind: 'number', column: 'hours' },
      },
      sorts: { date: 'date' },
      notFound: (id) => new ResourceNotFoundError(`Time entry ${id}`),
    });
  }

  /** The user the hours are of (`user_id`). */
  requireUser(id: number): Promise<User> {
    return this.scope.repository(User).requireReference(id, 'user_id');
  }

  /** The project the hours are on (`project_id`). */
  async requireProject(id: number): Promise<void> {
    await this.scope.repository(Project).requireReference(id, 'project_id');
  }

  /** The position the hours are worked in (`user_position_id`). */
  async requirePosition(id: number): Promise<void> {
    await this.scope.repository(Position).requireReference(id, 'user_position_id');
  }

  /** The task the hours are on (`task_id`). */
  requireTask(id: number): Promise<Task> {
    return this.scope.repository(Task).requireReference(id, 'task_id');
  }
}
