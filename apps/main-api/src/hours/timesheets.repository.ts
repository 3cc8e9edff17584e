import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope } from '@platform/database';
import { Between } from 'typeorm';
import { User } from '../users/user.entity';
import { TimeEntry, type TimeEntryStatus } from './time-entry.entity';
import { TimesheetLock } from './timesheet-lock.entity';

/** A week's step: which entries it takes, and what it makes of them. */
export interface TimesheetTransition {
  from: readonly TimeEntryStatus[];
  to: TimeEntryStatus;
  /** Submitting clears the last review; a review records who and when. */
  reviewedByUserId: number | null;
  reviewNote: string | null;
}

// One statement: the week's entries in the starting states change together, or (the lock) none does.
const TRANSITION_WEEK = `UPDATE time_entries
    SET status = $5::varchar,
        submitted_at = CASE WHEN $5::varchar = 'submitted' THEN now() ELSE submitted_at END,
        reviewed_by_user_id = $6::integer,
        reviewed_at = CASE WHEN $5::varchar = 'submitted' THEN NULL ELSE now() END,
        review_note = $7::varchar
  WHERE company_id = $1 AND user_id = $2 AND date BETWEEN $3::date AND $4::date AND status = ANY($8::varchar[])
  RETURNING id`;
const TRANSITION_WEEK_NAME = preparedStatementName(TRANSITION_WEEK);

const PUT_LOCK = `INSERT INTO timesheet_locks (company_id, locked_until, updated_by_user_id)
  VALUES ($1, $2, $3)
  ON CONFLICT (company_id) DO UPDATE
    SET locked_until = EXCLUDED.locked_until, updated_by_user_id = EXCLUDED.updated_by_user_id,
        version = timesheet_locks.version + 1, updated_at = now()
  RETURNING company_id`;

/** People's weeks of time entries, and the company's period lock. */
@Injectable()
export class TimesheetsRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** The person, or none in the request's company. */
  findUser(id: number): Promise<User | null> {
    return this.scope.repository(User).findById(id);
  }

  /** The person's entries on the week's days, by day. */
  weekEntries(userId: number, from: string, to: string): Promise<TimeEntry[]> {
    return this.scope.repository(TimeEntry).find({
      where: { userId, date: Between(from, to) },
      order: { date: 'ASC', id: 'ASC' },
    });
  }

  /** Moves the week's entries in `transition.from` to `transition.to`: how many moved. */
  async transitionWeek(
    userId: number,
    from: string,
    to: string,
    transition: TimesheetTransition,
  ): Promise<number> {
    const moved = await this.scope.sql.execute<{ id: number }>(
      TRANSITION_WEEK,
      [
        this.scope.companyId(),
        userId,
        from,
        to,
        transition.to,
        transition.reviewedByUserId,
        transition.reviewNote,
        transition.from,
      ],
      TRANSITION_WEEK_NAME,
    );
    return moved.length;
  }

  /** The company's lock, if it has one (the repository scopes the read to the company). */
  async lock(): Promise<TimesheetLock | null> {
    const [lock] = await this.scope.repository(TimesheetLock).find();
    return lock ?? null;
  }

  /**
   * Sets (or, with null, lifts) the lock under the company row's lock: entry writes in flight finish
   * first and the ones after read the new lock (trigger `time_entries_guard`).
   */
  async putLock(lockedUntil: string | null, userId: number | null): Promise<TimesheetLock | null> {
    await this.scope.transaction(async (unit) => {
      const companyId = unit.companyId();
      await unit.sql.execute('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
      if (lockedUntil === null) {
        await unit.sql.execute('DELETE FROM timesheet_locks WHERE company_id = $1', [companyId]);
      } else {
        await unit.sql.execute(PUT_LOCK, [companyId, lockedUntil, userId]);
      }
    });
    return this.lock();
  }
}
