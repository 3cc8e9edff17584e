import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate, type ListQueryDto, type Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { TaskStatus } from './task-status';
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';
import { referenceProblem } from './attachment-links';
import { TaskDto, type CreateAttachmentDto, type CreateTaskDto, type UpdateTaskDto } from './dto/task.dto';
import { TaskAttachment, type AttachmentSource } from './task-attachment.entity';
import { Task } from './task.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const TASK_FILTERS: FilterDefinitions = {
  project_id: { kind: 'integer', column: 'project_id' },
  status: { kind: 'enum', column: 'status', values: Object.values(TaskStatus) },
  assignee_id: { kind: 'integer', column: 'assignee_id' },
  name: { kind: 'text', column: 'name' },
};

@Injectable()
export class TasksService {
  private readonly tasks: TenantRepository<Task>;

  constructor(
    private readonly repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
  ) {
    this.tasks = repositories.for(Task);
  }

  async create(body: CreateTaskDto): Promise<Task> {
    await this.repositories.for(Project).requireReference(body.project_id, 'project_id');
    await this.validate(body);
    return this.tasks.create({
      projectId: body.project_id,
      name: body.name,
      description: body.description ?? '',
      status: body.status ?? TaskStatus.New,
      assigneeId: body.assignee_id ?? null,
      start: body.start ?? null,
      end: body.end ?? null,
      estimatedTime: String(body.estimated_time ?? 0),
    });
  }

  list(query: ListQueryDto): Promise<Paginated<TaskDto> | TaskDto[]> {
    return this.tasks.paginate(this.tasks.queryBuilder('task'), 'task', query, TASK_FILTERS, (task) =>
      TaskDto.from(task),
    );
  }

  async get(id: number): Promise<Task> {
    const task = await this.tasks.findById(id);
    if (!task) {
      throw new ResourceNotFoundError(`Task ${id}`);
    }
    return task;
  }

  async update(id: number, body: UpdateTaskDto): Promise<Task> {
    const task = await this.get(id);
    await this.validate({
      ...body,
      start: body.start ?? task.start ?? undefined,
      end: body.end ?? task.end ?? undefined,
    });
    Object.assign(task, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.status !== undefined && { status: body.status }),
      ...(body.assignee_id !== undefined && { assigneeId: body.assignee_id }),
      ...(body.start !== undefined && { start: body.start }),
      ...(body.end !== undefined && { end: body.end }),
      ...(body.estimated_time !== undefined && { estimatedTime: String(body.estimated_time) }),
    });
    return this.tasks.save(task);
  }

  async remove(id: number): Promise<Task> {
    return this.tasks.softRemove(await this.get(id));
  }

  /** `sourceType` is checked by the route (AC001) before the body is validated. */
  async attach(
    taskId: number,
    sourceType: AttachmentSource,
    body: CreateAttachmentDto,
  ): Promise<TaskAttachment> {
    const problem = referenceProblem(sourceType, body.filename);
    if (problem) {
      throw new RequestValidationError([{ field: 'filename', validation: 'isFileLink', message: problem }]);
    }
    await this.get(taskId);
    return this.repositories.for(TaskAttachment).create({
      taskId,
      source: sourceType,
      filename: body.filename,
      originalName: body.originalname,
      size: String(body.size),
      available: body.available,
      sessionToken: body.session_token ?? null,
      userId: this.principals.get().userId ?? null,
      discussionsId: null,
    });
  }

  private async validate(body: { assignee_id?: number; start?: string; end?: string }): Promise<void> {
    if (body.assignee_id) {
      await this.repositories.for(User).requireReference(body.assignee_id, 'assignee_id');
    }
    for (const field of ['start', 'end'] as const) {
      const value = body[field];
      if (value !== undefined && !isCalendarDate(value)) {
        throw new RequestValidationError([
          { field, validation: 'isDate', message: `${field} must be a real calendar date` },
        ]);
      }
    }
    if (body.start && body.end && body.start > body.end) {
      throw new RequestValidationError([
        { field: 'end', validation: 'notBeforeStart', message: 'end must not be before start' },
      ]);
    }
  }
}
