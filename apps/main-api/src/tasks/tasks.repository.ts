import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { RequestTenantScope, type FilterDefinitions, type TenantRepository } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';
import { TaskAttachment } from './task-attachment.entity';
import { TaskStatus } from './task-status';
import { Task } from './task.entity';

const TASK_FILTERS: FilterDefinitions = {
  project_id: { kind: 'integer', column: 'project_id' },
  status: { kind: 'enum', column: 'status', values: Object.values(TaskStatus) },
  assignee_id: { kind: 'integer', column: 'assignee_id' },
  name: { kind: 'text', column: 'name' },
};

/** Tasks and their attachments in the request's company, and the rows a task refers to. */
@Injectable()
export class TasksRepository {
  private readonly tasks: TenantRepository<Task>;

  constructor(private readonly scope: RequestTenantScope) {
    this.tasks = scope.repository(Task);
  }

  /** A page of tasks (docs/spec/decisions.md §5: filters, order, pagination), each as `toDto` shapes it. */
  list<Dto>(query: ListQueryDto, toDto: (task: Task) => Dto): Promise<Paginated<Dto> | Dto[]> {
    return this.tasks.paginate(this.tasks.queryBuilder('task'), 'task', query, TASK_FILTERS, toDto);
  }

  findById(id: number): Promise<Task | null> {
    return this.tasks.findById(id);
  }

  create(columns: DeepPartial<Task>): Promise<Task> {
    return this.tasks.create(columns);
  }

  save(task: Task): Promise<Task> {
    return this.tasks.save(task);
  }

  softRemove(task: Task): Promise<Task> {
    return this.tasks.softRemove(task);
  }

  addAttachment(columns: DeepPartial<TaskAttachment>): Promise<TaskAttachment> {
    return this.scope.repository(TaskAttachment).create(columns);
  }

  /** The task's project, by the body's `project_id` (400 naming it when the company has none). */
  async requireProject(id: number): Promise<void> {
    await this.scope.repository(Project).requireReference(id, 'project_id');
  }

  /** The task's assignee, by the body's `assignee_id` (400 naming it when the company has none). */
  async requireAssignee(id: number): Promise<void> {
    await this.scope.repository(User).requireReference(id, 'assignee_id');
  }
}
