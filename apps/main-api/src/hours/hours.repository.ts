import { Injectable } from '@nestjs/common';
import type { ListAnswer, ListQueryDto } from '@platform/contracts';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { IsNull, type DeepPartial } from 'typeorm';
import { AmbiguousTimeEntryError } from './hours.errors';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Position } from '../positions/position.entity';
import { Project } from '../projects/project.entity';
import { Task } from '../tasks/task.entity';
import { User } from '../users/user.entity';
import { TimeEntry, type TimeEntryStatus } from './time-entry.entity';

const TIME_ENTRY_FILTERS = {
  user_id: { kind: 'integer', column: 'user_id' },
  project_id: { kind: 'integer', column: 'project_id' },
  task_id: { kind: 'integer', column: 'task_id' },
  user_position_id: { kind: 'integer', column: 'user_position_id' },
  date: { kind: 'date', column: 'date' },
  hours: { kind: 'number', column: 'hours' },
} as const;
const TIME_ENTRY_SORTS = { date: 'date' };

/** What `GET /v1/time-entries` narrows its list to, besides `filters`. */
export interface TimeEntriesWindow {
  from?: string;
  to?: string;
  userIds?: number[];
  projectIds?: number[];
  status?: TimeEntryStatus;
  billable?: boolean;
  source?: string;
}

/** How an upsert finds the entry it changes: the tracker's key, or the person's day on a project task. */
export type TimeEntryKey =
  | { source: string; externalId: string }
  | { userId: number; projectId: number; taskId: number | null; date: string };

/** The columns an upsert compares to decide whether the entry changed. */
const UPSERTED: readonly (keyof TimeEntry)[] = [
  'userId',
  'projectId',
  'taskId',
  'userPositionId',
  'date',
  'hours',
  'note',
  'billable',
  'allocationId',
  'source',
  'externalId',
];

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
      filters: TIME_ENTRY_FILTERS,
      sorts: TIME_ENTRY_SORTS,
      notFound: (id) => new ResourceNotFoundError(`Time entry ${id}`),
    });
  }

  /** The user the hours are of (`user_id`). */
  requireUser(id: number): Promise<User> {
    return this.scope.repository(User).requireReference(id, 'user_id');
  }

  /** The project the hours are on (`project_id`). */
  requireProject(id: number): Promise<Project> {
    return this.scope.repository(Project).requireReference(id, 'project_id');
  }

  /** The list (docs/spec/decisions.md §5) of the entries in the window. */
  listIn<Dto>(
    list: ListQueryDto,
    window: TimeEntriesWindow,
    toDto: (entry: TimeEntry) => Dto,
  ): Promise<ListAnswer<Dto>> {
    const query = this.detailed();
    if (window.from) {
      query.andWhere('entry.date >= :from', { from: window.from });
    }
    if (window.to) {
      query.andWhere('entry.date <= :to', { to: window.to });
    }
    if (window.userIds) {
      query.andWhere('entry.userId IN (:...userIds)', { userIds: window.userIds });
    }
    if (window.projectIds) {
      query.andWhere('entry.projectId IN (:...projectIds)', { projectIds: window.projectIds });
    }
    if (window.status) {
      query.andWhere('entry.status = :status', { status: window.status });
    }
    if (window.billable !== undefined) {
      query.andWhere('entry.billable = :billable', { billable: window.billable });
    }
    if (window.source) {
      query.andWhere('entry.source = :source', { source: window.source });
    }
    return this.rows.paginate(query, 'entry', list, TIME_ENTRY_FILTERS, toDto, TIME_ENTRY_SORTS);
  }

  /**
   * Creates the entry of `key`, or changes it to `columns` when they differ (an unchanged entry is not
   * written: its version stays, and an approved one stays approved). One transaction under an advisory
   * lock of the key, so parallel imports of one key make one entry. The person's-day key is not unique
   * in the table (the interface logs several entries a day); more than one match is a 409.
   */
  upsert(
    key: TimeEntryKey,
    columns: DeepPartial<TimeEntry>,
  ): Promise<{ entry: TimeEntry; created: boolean }> {
    return this.scope.transaction(async (unit) => {
      const companyId = unit.companyId();
      const lockName =
        'source' in key
          ? `time-entry:${companyId}:${key.source}:${key.externalId}`
          : `time-entry:${companyId}:${key.userId}:${key.date}`;
      await unit.sql.select('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lockName]);
      const rows = unit.repository(TimeEntry);
      const found = await rows.find({
        where:
          'source' in key
            ? { source: key.source, externalId: key.externalId }
            : {
                userId: key.userId,
                projectId: key.projectId,
                taskId: key.taskId ?? IsNull(),
                date: key.date,
              },
        lock: { mode: 'pessimistic_write' },
      });
      if (found.length > 1) {
        throw new AmbiguousTimeEntryError(found.length);
      }
      const [existing] = found;
      if (!existing) {
        return { entry: await rows.create(columns), created: true };
      }
      const record = columns as Partial<TimeEntry>;
      // Compared as the database holds them: numeric hours as numbers, the rest as they are.
      const changed = UPSERTED.some((column) =>
        column === 'hours'
          ? Number(existing.hours) !== Number(record.hours)
          : (existing[column] ?? null) !== (record[column] ?? null),
      );
      return {
        entry: changed ? await rows.save({ ...existing, ...columns } as TimeEntry) : existing,
        created: false,
      };
    });
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
