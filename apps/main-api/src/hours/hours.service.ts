import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate, Role, type ListQueryDto, type ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import type { User } from '../users/user.entity';
import { TimeEntryDto, type CreateTimeEntryDto, type UpdateTimeEntryDto } from './dto/time-entry.dto';
import type { TimeEntry } from './time-entry.entity';
import { HoursRepository } from './hours.repository';
import { AccessDeniedError } from '../errors/main-api.errors';

const LOGS_FOR_OTHERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);

@Injectable()
export class HoursService {
  constructor(
    private readonly hours: HoursRepository,
    private readonly principals: PrincipalContext,
  ) {}

  async create(body: CreateTimeEntryDto): Promise<TimeEntry> {
    this.assertMayLogFor(body.user_id);
    const user = await this.checkFields(body);
    if (body.task_id) {
      await this.checkTaskOfProject(body.task_id, body.project_id);
    }
    return this.hours.create({
      userId: body.user_id,
      projectId: body.project_id,
      taskId: body.task_id ?? null,
      userPositionId: body.user_position_id ?? user?.userPositionId ?? null,
      date: body.date,
      hours: String(body.hours),
    });
  }

  /** Only the fields sent change; the entry as it was and as it becomes must both be the caller's to log. */
  async update(id: number, body: UpdateTimeEntryDto): Promise<TimeEntry> {
    const entry = await this.get(id);
    this.assertMayLogFor(entry.userId);
    if (body.user_id !== undefined) {
      this.assertMayLogFor(body.user_id);
    }
    const projectId = body.project_id ?? entry.projectId;
    await this.checkFields(body);
    const taskId = body.task_id === undefined ? entry.taskId : body.task_id;
    // A task sent, or a kept task when the entry moves to another project, must be of that project.
    if (taskId !== null && (body.task_id !== undefined || projectId !== entry.projectId)) {
      await this.checkTaskOfProject(taskId, projectId);
    }
    Object.assign(entry, {
      ...(body.user_id !== undefined && { userId: body.user_id }),
      projectId,
      taskId,
      ...(body.user_position_id !== undefined && { userPositionId: body.user_position_id }),
      ...(body.date !== undefined && { date: body.date }),
      ...(body.hours !== undefined && { hours: String(body.hours) }),
    });
    return this.hours.save(entry);
  }

  list(query: ListQueryDto): Promise<ListAnswer<TimeEntryDto>> {
    return this.hours.list(query, (entry) => TimeEntryDto.from(entry));
  }

  get(id: number): Promise<TimeEntry> {
    return this.hours.get(id);
  }

  async remove(id: number): Promise<TimeEntry> {
    const entry = await this.get(id);
    await this.hours.delete(entry);
    return entry;
  }

  /** Roles 4 and 5 log (and correct) only their own hours; 1-3 anyone's in the company. */
  private assertMayLogFor(userId: number): void {
    const principal = this.principals.get();
    if (!LOGS_FOR_OTHERS.has(principal.roleId) && principal.userId !== userId) {
      throw new AccessDeniedError('Your role may only log your own hours');
    }
  }

  /**
   * The rules of the fields a body carries (every field on create, the ones sent on update): a real
   * day, and references to rows of the caller's company. Answers the user when `user_id` was sent.
   */
  private async checkFields(body: {
    user_id?: number;
    project_id?: number;
    user_position_id?: number | null;
    date?: string;
  }): Promise<User | undefined> {
    if (body.date !== undefined && !isCalendarDate(body.date)) {
      throw new RequestValidationError([
        { field: 'date', validation: 'isDate', message: 'date must be a real calendar date' },
      ]);
    }
    const user = body.user_id === undefined ? undefined : await this.hours.requireUser(body.user_id);
    if (body.project_id !== undefined) {
      await this.hours.requireProject(body.project_id);
    }
    if (body.user_position_id) {
      await this.hours.requirePosition(body.user_position_id);
    }
    return user;
  }

  private async checkTaskOfProject(taskId: number, projectId: number): Promise<void> {
    const task = await this.hours.requireTask(taskId);
    if (task.projectId !== projectId) {
      throw new RequestValidationError([
        {
          field: 'task_id',
          validation: 'ofProject',
          message: `task_id ${taskId} is not a task of project ${projectId}`,
        },
      ]);
    }
  }
}
