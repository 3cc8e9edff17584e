import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { entityIdsOf, isCalendarDate, Role, type ListQueryDto, type ListAnswer } from '@platform/contracts';
import { assertDayWindow, RequestValidationError } from '@platform/runtime';
import type { Project } from '../projects/project.entity';
import type { User } from '../users/user.entity';
import { TimeEntryDto, type CreateTimeEntryDto, type UpdateTimeEntryDto } from './dto/time-entry.dto';
import {
  TimeEntryDetailDto,
  type CreateTimeEntryDetailDto,
  type TimeEntriesListQueryDto,
  type UpdateTimeEntryDetailDto,
  type UpsertTimeEntryDto,
} from './dto/time-entry-detail.dto';
import type { TimeEntry } from './time-entry.entity';
import { HoursRepository, type TimeEntriesWindow } from './hours.repository';
import { AccessDeniedError } from '../errors/main-api.errors';

const LOGS_FOR_OTHERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);

/**
 * Time entries, as the interface's `/v1/hours` and as `/v1/time-entries` (issue 40) write them: one
 * set of rules. The interface's bodies lack the billing fields, which then take their defaults (the
 * project's `billable`, no note, no source).
 */
@Injectable()
export class HoursService {
  constructor(
    private readonly hours: HoursRepository,
    private readonly principals: PrincipalContext,
  ) {}

  async create(body: CreateTimeEntryDto | CreateTimeEntryDetailDto): Promise<TimeEntry> {
    return this.hours.create(await this.columnsOf(body));
  }

  /**
   * `POST /v1/time-entries/upsert` and each entry of `POST /v1/hours/batch`: the entry of the
   * tracker's key (or of the person's day on the project task) becomes the body, created if none.
   */
  async upsert(body: UpsertTimeEntryDto): Promise<{ entry: TimeEntry; created: boolean }> {
    const columns = await this.columnsOf(body);
    const key =
      body.source && body.external_id
        ? { source: body.source, externalId: body.external_id }
        : { userId: body.user_id, projectId: body.project_id, taskId: body.task_id ?? null, date: body.date };
    const { entry, created } = await this.hours.upsert(key, columns);
    // Read again: the database may have changed what was written (a reviewed entry back to draft).
    return { entry: await this.get(entry.id), created };
  }

  /** Only the fields sent change; the entry as it was and as it becomes must both be the caller's to log. */
  async update(id: number, body: UpdateTimeEntryDto | UpdateTimeEntryDetailDto): Promise<TimeEntry> {
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
    const billing: Partial<UpdateTimeEntryDetailDto> = body;
    const source = billing.source === undefined ? entry.source : billing.source;
    const externalId = billing.external_id === undefined ? entry.externalId : billing.external_id;
    assertTrackerKey(source ?? null, externalId ?? null);
    Object.assign(entry, {
      ...(body.user_id !== undefined && { userId: body.user_id }),
      projectId,
      taskId,
      ...(body.user_position_id !== undefined && { userPositionId: body.user_position_id }),
      ...(body.date !== undefined && { date: body.date }),
      ...(body.hours !== undefined && { hours: String(body.hours) }),
      ...(billing.note !== undefined && { note: billing.note }),
      ...(billing.billable !== undefined && { billable: billing.billable }),
      ...(billing.allocation_id !== undefined && { allocationId: billing.allocation_id }),
      source,
      externalId,
    });
    await this.hours.save(entry);
    return this.get(id);
  }

  list(query: ListQueryDto): Promise<ListAnswer<TimeEntryDto>> {
    return this.hours.list(query, (entry) => TimeEntryDto.from(entry));
  }

  listDetailed(query: TimeEntriesListQueryDto): Promise<ListAnswer<TimeEntryDetailDto>> {
    return this.hours.listIn(query, windowOf(query), (entry) => TimeEntryDetailDto.from(entry));
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

  /** A new entry's columns, every rule of create checked: defaults from the person and the project. */
  private async columnsOf(body: CreateTimeEntryDto | CreateTimeEntryDetailDto): Promise<Partial<TimeEntry>> {
    this.assertMayLogFor(body.user_id);
    const billing: Partial<CreateTimeEntryDetailDto> = body;
    assertTrackerKey(billing.source ?? null, billing.external_id ?? null);
    const { user, project } = await this.checkFields(body);
    if (body.task_id) {
      await this.checkTaskOfProject(body.task_id, body.project_id);
    }
    return {
      userId: body.user_id,
      projectId: body.project_id,
      taskId: body.task_id ?? null,
      userPositionId: body.user_position_id ?? user?.userPositionId ?? null,
      date: body.date,
      hours: String(body.hours),
      note: billing.note ?? null,
      billable: billing.billable ?? project?.billable ?? true,
      allocationId: billing.allocation_id ?? null,
      source: billing.source ?? null,
      externalId: billing.external_id ?? null,
    };
  }

  /**
   * The rules of the fields a body carries (every field on create, the ones sent on update): a real
   * day, and references to rows of the caller's company. Answers the user and project sent.
   */
  private async checkFields(body: {
    user_id?: number;
    project_id?: number;
    user_position_id?: number | null;
    date?: string;
  }): Promise<{ user?: User; project?: Project }> {
    if (body.date !== undefined && !isCalendarDate(body.date)) {
      throw new RequestValidationError([
        { field: 'date', validation: 'isDate', message: 'date must be a real calendar date' },
      ]);
    }
    const user = body.user_id === undefined ? undefined : await this.hours.requireUser(body.user_id);
    const project =
      body.project_id === undefined ? undefined : await this.hours.requireProject(body.project_id);
    if (body.user_position_id) {
      await this.hours.requirePosition(body.user_position_id);
    }
    return { user, project };
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

/** A tracker's key is both fields or neither (the table's check says so too). */
function assertTrackerKey(source: string | null, externalId: string | null): void {
  if ((source === null) !== (externalId === null)) {
    throw new RequestValidationError([
      {
        field: source === null ? 'source' : 'external_id',
        validation: 'bothOrNeither',
        message: 'source and external_id go together: give both or neither',
      },
    ]);
  }
}

/** The list's window: days (both included), people, projects, status, billable, source. */
function windowOf(query: TimeEntriesListQueryDto): TimeEntriesWindow {
  assertDayWindow(query.from, query.to);
  return {
    from: query.from,
    to: query.to,
    userIds: query.user_ids === undefined ? undefined : entityIdsOf(query.user_ids),
    projectIds: query.project_ids === undefined ? undefined : entityIdsOf(query.project_ids),
    status: query.status,
    billable: query.billable === undefined ? undefined : query.billable === 'true',
    source: query.source,
  };
}
