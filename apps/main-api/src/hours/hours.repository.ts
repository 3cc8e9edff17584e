import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { RequestTenantScope, type FilterDefinitions, type TenantRepository } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { Position } from '../positions/position.entity';
import { Project } from '../projects/project.entity';
import { Task } from '../tasks/task.entity';
import { User } from '../users/user.entity';
import { TimeEntry } from './time-entry.entity';

const HOUR_FILTERS: FilterDefinitions = {
  user_id: { kind: 'integer', column: 'user_id' },
  project_id: { kind: 'integer', column: 'project_id' },
  task_id: { kind: 'integer', column: 'task_id' },
  user_position_id: { kind: 'integer', column: 'user_position_id' },
};

/**
 * Time entries in the request's company, and the rows an entry refers to: each reference check
 * answers 400 naming the body's field when the company has no such row.
 */
@Injectable()
export class HoursRepository {
  private readonly entries: TenantRepository<TimeEntry>;

  constructor(private readonly scope: RequestTenantScope) {
    this.entries = scope.repository(TimeEntry);
  }

  /** A page of entries (docs/spec/decisions.md §5: filters, order, pagination), each as `toDto` shapes it. */
  list<Dto>(query: ListQueryDto, toDto: (entry: TimeEntry) => Dto): Promise<Paginated<Dto> | Dto[]> {
    return this.entries.paginate(this.entries.queryBuilder('entry'), 'entry', query, HOUR_FILTERS, toDto);
  }

  findById(id: number): Promise<TimeEntry | null> {
    return this.entries.findById(id);
  }

  create(columns: DeepPartial<TimeEntry>): Promise<TimeEntry> {
    return this.entries.create(columns);
  }

  save(entry: TimeEntry): Promise<TimeEntry> {
    return this.entries.save(entry);
  }

  /** For good: an entry has no history to keep. */
  delete(entry: TimeEntry): Promise<void> {
    return this.entries.delete(entry);
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
