import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate, type ListQueryDto, type ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { TaskStatus } from './task-status';
import { referenceProblem } from './attachment-links';
import { TaskDto, type CreateAttachmentDto, type CreateTaskDto, type UpdateTaskDto } from './dto/task.dto';
import type { AttachmentSource, TaskAttachment } from './task-attachment.entity';
import type { Task } from './task.entity';
import { TasksRepository } from './tasks.repository';

@Injectable()
export class TasksService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly principals: PrincipalContext,
  ) {}

  /** The project of each of these tasks the company has (the planner's look-up). */
  projectsOf(ids: readonly number[]): Promise<{ id: number; project_id: number }[]> {
    return this.tasks.projectsOf(ids);
  }

  async create(body: CreateTaskDto): Promise<Task> {
    await this.tasks.requireProject(body.project_id);
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

  list(query: ListQueryDto): Promise<ListAnswer<TaskDto>> {
    return this.tasks.list(query, (task) => TaskDto.from(task));
  }

  get(id: number): Promise<Task> {
    return this.tasks.get(id);
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
    return this.tasks.addAttachment({
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
      await this.tasks.requireAssignee(body.assignee_id);
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
