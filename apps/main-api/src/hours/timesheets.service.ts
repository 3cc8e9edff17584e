import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate, Role } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { AccessDeniedError, ResourceNotFoundError } from '../errors/main-api.errors';
import type { PutTimesheetLockDto, ReviewTimesheetDto } from './dto/timesheet.dto';
import { TimesheetStateError } from './hours.errors';
import { isoWeekOf, type IsoWeek } from './iso-week';
import type { TimeEntry } from './time-entry.entity';
import type { TimesheetLock } from './timesheet-lock.entity';
import { TimesheetsRepository, type TimesheetTransition } from './timesheets.repository';

/** A person's week and its entries, as the timesheet routes answer it. */
export interface Timesheet {
  userId: number;
  week: IsoWeek;
  entries: TimeEntry[];
}

const SUBMITS_FOR_OTHERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);
const LOCKS_PERIODS = new Set<Role>([Role.CLevel, Role.Director]);

/**
 * Weekly approval of time (issue 40), with the roles of leaves: a person submits their own week (roles
 * 1-3 anyone's), roles 1-3 approve or reject it. Each step is one statement over the week's entries in
 * the state it starts from, so a week is never half submitted; the period lock is the database's.
 */
@Injectable()
export class TimesheetsService {
  constructor(
    private readonly timesheets: TimesheetsRepository,
    private readonly principals: PrincipalContext,
  ) {}

  async get(userId: number, isoWeek: string): Promise<Timesheet> {
    const week = isoWeekOf(isoWeek);
    await this.requireUser(userId);
    return { userId, week, entries: await this.timesheets.weekEntries(userId, week.from, week.to) };
  }

  submit(userId: number, isoWeek: string): Promise<Timesheet> {
    const principal = this.principals.get();
    if (!SUBMITS_FOR_OTHERS.has(principal.roleId) && principal.userId !== userId) {
      throw new AccessDeniedError('Your role may only submit your own timesheet');
    }
    return this.step(userId, isoWeek, 'submit', 'draft or rejected', {
      from: ['draft', 'rejected'],
      to: 'submitted',
      reviewedByUserId: null,
      reviewNote: null,
    });
  }

  approve(userId: number, isoWeek: string, body: ReviewTimesheetDto): Promise<Timesheet> {
    return this.step(userId, isoWeek, 'approve', 'submitted', {
      from: ['submitted'],
      to: 'approved',
      reviewedByUserId: this.principals.get().userId ?? null,
      reviewNote: body.note ?? null,
    });
  }

  reject(userId: number, isoWeek: string, body: ReviewTimesheetDto): Promise<Timesheet> {
    return this.step(userId, isoWeek, 'reject', 'submitted or approved', {
      from: ['submitted', 'approved'],
      to: 'rejected',
      reviewedByUserId: this.principals.get().userId ?? null,
      reviewNote: body.note ?? null,
    });
  }

  lock(): Promise<TimesheetLock | null> {
    return this.timesheets.lock();
  }

  /** Roles 1-2 move the company's lock; null lifts it. */
  putLock(body: PutTimesheetLockDto): Promise<TimesheetLock | null> {
    const principal = this.principals.get();
    if (!LOCKS_PERIODS.has(principal.roleId)) {
      throw new AccessDeniedError('Only roles 1 and 2 may lock or unlock time');
    }
    if (body.locked_until !== null && !isCalendarDate(body.locked_until)) {
      throw new RequestValidationError([
        { field: 'locked_until', validation: 'isDate', message: 'locked_until must be a real calendar date' },
      ]);
    }
    return this.timesheets.putLock(body.locked_until, principal.userId ?? null);
  }

  private async step(
    userId: number,
    isoWeek: string,
    action: 'submit' | 'approve' | 'reject',
    expected: string,
    transition: TimesheetTransition,
  ): Promise<Timesheet> {
    const week = isoWeekOf(isoWeek);
    await this.requireUser(userId);
    const moved = await this.timesheets.transitionWeek(userId, week.from, week.to, transition);
    if (moved === 0) {
      throw new TimesheetStateError(userId, week.name, action, expected);
    }
    return { userId, week, entries: await this.timesheets.weekEntries(userId, week.from, week.to) };
  }

  private async requireUser(userId: number): Promise<void> {
    if (!(await this.timesheets.findUser(userId))) {
      throw new ResourceNotFoundError(`User ${userId}`);
    }
  }
}
