import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope, type TenantUnitOfWork } from '@platform/database';
import { assertWritePrecondition, setWritePrecondition } from '@platform/runtime';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { User } from '../users/user.entity';
import type { WorkingTimeEntryDto, WorkingTimeEntryInputDto } from './dto/working-time.dto';
import { WorkingSchedule } from './working-schedule.entity';
import { WorkingTimeEntry } from './working-time-entry.entity';

// Every week answer comes from these (the planner's on every report): fixed texts, prepared once per
// connection, selecting straight into WorkingTimeEntryDto's fields in its order. Making entities of
// 250 entries (timestamps parsed, times converted) and mapping them again cost more than the rest of
// the planner's look-up (bench/README.md, round 4).
const WEEK_ENTRY_FIELDS = `entry.daily_hours::float8 AS daily_hours, entry.day_of_week,
       to_char(entry.start_at, 'HH24:MI:SS') AS start_at, to_char(entry.end_at, 'HH24:MI:SS') AS end_at,
       entry.user_id, entry.break_time::float8 AS break_time`;

/**
 * The people's schedules, each with the days it is in force: from its first day until the next
 * one's (`ends`, exclusive), the first from the beginning (`starts` -infinity), so a day before a
 * person's first schedule reads that one. The one rule of "in force", for every read below.
 */
const schedulesWhere = (people: string) => `WITH schedule AS (
  SELECT s.id, s.user_id, s.effective_from, s.version,
         CASE WHEN lag(s.id) OVER w IS NULL THEN '-infinity'::date ELSE s.effective_from END AS starts,
         coalesce(lead(s.effective_from) OVER w, 'infinity'::date) AS ends
    FROM working_schedules s
   WHERE s.company_id = $1 AND ${people}
  WINDOW w AS (PARTITION BY s.user_id ORDER BY s.effective_from)
)`;

/** Entries of the schedules in force on the day `day` (a parameter; today for the interface's routes). */
const inForce = (people: string, day: string) => `${schedulesWhere(people)}
SELECT ${WEEK_ENTRY_FIELDS}
  FROM schedule JOIN working_time_entries entry ON entry.schedule_id = schedule.id
 WHERE schedule.starts <= ${day}::date AND ${day}::date < schedule.ends
 ORDER BY entry.user_id, entry.day_of_week`;

const WEEKS_OF_USERS = inForce('s.user_id = ANY($2::integer[])', '$3');
const WEEKS_OF_USERS_NAME = preparedStatementName(WEEKS_OF_USERS);
const WEEKS_OF_COMPANY = inForce('TRUE', '$2');
const WEEKS_OF_COMPANY_NAME = preparedStatementName(WEEKS_OF_COMPANY);

/**
 * These people's schedules in force on $3 (today) or on any day of [$4, $5] (all of them without a
 * period), each with its week as WorkingTimeEntryDto[]: one row per schedule, one statement for the
 * planner's look-up whatever the number of people.
 */
const SCHEDULES_OF_USERS = `${schedulesWhere('s.user_id = ANY($2::integer[])')}
SELECT schedule.user_id, schedule.effective_from::text AS effective_from, schedule.version,
       schedule.starts <= $3::date AND $3::date < schedule.ends AS in_force_today,
       $4::date IS NULL OR (schedule.starts <= $5::date AND $4::date < schedule.ends) AS in_period,
       coalesce((SELECT json_agg(json_build_object(
                          'daily_hours', entry.daily_hours::float8, 'day_of_week', entry.day_of_week,
                          'start_at', to_char(entry.start_at, 'HH24:MI:SS'),
                          'end_at', to_char(entry.end_at, 'HH24:MI:SS'),
                          'user_id', entry.user_id, 'break_time', entry.break_time::float8)
                        ORDER BY entry.day_of_week)
                   FROM working_time_entries entry WHERE entry.schedule_id = schedule.id), '[]') AS entries
  FROM schedule
 WHERE (schedule.starts <= $3::date AND $3::date < schedule.ends)
    OR $4::date IS NULL OR (schedule.starts <= $5::date AND $4::date < schedule.ends)
 ORDER BY schedule.user_id, schedule.effective_from`;
const SCHEDULES_OF_USERS_NAME = preparedStatementName(SCHEDULES_OF_USERS);

/** One schedule of a person, with whether it is in force on the day asked and in the period asked. */
export interface ScheduleRow {
  user_id: number;
  effective_from: string;
  version: number;
  in_force_today: boolean;
  in_period: boolean;
  entries: WorkingTimeEntryDto[];
}

/** The working weeks of the request's company: people's schedules and their entries. */
@Injectable()
export class WorkingTimeRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** The entries of the weeks in force on `day` of these users (of every user without `userIds`), by user, then day. */
  weekEntries(userIds: number[] | undefined, day: string): Promise<WorkingTimeEntryDto[]> {
    const companyId = this.scope.companyId();
    return userIds
      ? this.scope.sql.select<WorkingTimeEntryDto>(
          WEEKS_OF_USERS,
          [companyId, userIds, day],
          WEEKS_OF_USERS_NAME,
        )
      : this.scope.sql.select<WorkingTimeEntryDto>(WEEKS_OF_COMPANY, [companyId, day], WEEKS_OF_COMPANY_NAME);
  }

  /**
   * These users' schedules, by user then first day: those in force on `today` or on a day of the
   * period, every one without a period.
   */
  schedules(
    userIds: readonly number[],
    today: string,
    period: { from: string; to: string } | null,
  ): Promise<ScheduleRow[]> {
    return this.scope.sql.select<ScheduleRow>(
      SCHEDULES_OF_USERS,
      [this.scope.companyId(), userIds, today, period?.from ?? null, period?.to ?? null],
      SCHEDULES_OF_USERS_NAME,
    );
  }

  async userExists(userId: number): Promise<boolean> {
    return (await this.scope.repository(User).findById(userId)) !== null;
  }

  /** A new schedule with its week, in one transaction; a second one on its first day is a 422. */
  async createSchedule(
    userId: number,
    effectiveFrom: string,
    entries: WorkingTimeEntryInputDto[],
  ): Promise<void> {
    await this.scope.transaction(async (unit) => {
      const schedule = await unit.repository(WorkingSchedule).create({ userId, effectiveFrom });
      await this.insertEntries(unit, userId, schedule.id, entries);
    });
  }

  /**
   * The week of the schedule starting that day becomes `entries`, creating the schedule when there
   * is none (the interface's `PUT`): never half old, half new.
   */
  async replaceOrCreateSchedule(
    userId: number,
    effectiveFrom: string,
    entries: WorkingTimeEntryInputDto[],
  ): Promise<void> {
    await this.scope.transaction(async (unit) => {
      // Concurrent first writes of a day meet on the unique index; the update bumps the version.
      const [schedule] = await unit.sql.execute<{ id: number }>(
        `INSERT INTO working_schedules (company_id, user_id, effective_from) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, effective_from) DO UPDATE SET updated_at = now()
         RETURNING id`,
        [unit.companyId(), userId, effectiveFrom],
      );
      await this.replaceEntries(unit, userId, schedule.id, entries);
    });
  }

  /**
   * The week of the schedule starting that day becomes `entries`, under the schedule's lock and the
   * request's `If-Match` (its version); a 404 when there is no such schedule.
   */
  async replaceSchedule(
    userId: number,
    effectiveFrom: string,
    entries: WorkingTimeEntryInputDto[],
  ): Promise<void> {
    await this.scope.transaction(async (unit) => {
      const id = await this.lockSchedule(unit, userId, effectiveFrom);
      // The week is the schedule's content: its version moves with it.
      await unit.sql.execute('UPDATE working_schedules SET updated_at = now() WHERE id = $1', [id]);
      await this.replaceEntries(unit, userId, id, entries);
    });
  }

  /** Deletes the schedule starting that day (its entries with it), under its lock and `If-Match`. */
  async deleteSchedule(userId: number, effectiveFrom: string): Promise<void> {
    await this.scope.transaction(async (unit) => {
      const id = await this.lockSchedule(unit, userId, effectiveFrom);
      await unit.repository(WorkingSchedule).deleteWhere({ id });
    });
  }

  /**
   * Locks the person's schedule starting that day and checks the request's `If-Match` against its
   * version (`ConditionalResource` keys it by the day, the route's parameter); answers its id.
   */
  private async lockSchedule(unit: TenantUnitOfWork, userId: number, effectiveFrom: string): Promise<number> {
    const [row] = await unit.sql.select<{ id: number; version: number }>(
      `SELECT id, version FROM working_schedules
        WHERE company_id = $1 AND user_id = $2 AND effective_from = $3::date FOR UPDATE`,
      [unit.companyId(), userId, effectiveFrom],
    );
    const name = `Working schedule ${effectiveFrom} of user ${userId}`;
    if (!row) {
      throw new ResourceNotFoundError(name);
    }
    assertWritePrecondition(WorkingSchedule, effectiveFrom, row.version, name);
    // Met under the lock: the answer reads the schedule at its new version.
    setWritePrecondition(undefined);
    return row.id;
  }

  private async replaceEntries(
    unit: TenantUnitOfWork,
    userId: number,
    scheduleId: number,
    entries: WorkingTimeEntryInputDto[],
  ): Promise<void> {
    await unit.repository(WorkingTimeEntry).deleteWhere({ scheduleId });
    await this.insertEntries(unit, userId, scheduleId, entries);
  }

  private async insertEntries(
    unit: TenantUnitOfWork,
    userId: number,
    scheduleId: number,
    entries: WorkingTimeEntryInputDto[],
  ): Promise<void> {
    if (entries.length === 0) {
      return;
    }
    await unit.repository(WorkingTimeEntry).insertMany(
      entries.map((entry) => ({
        userId,
        scheduleId,
        dayOfWeek: entry.day_of_week,
        dailyHours: String(entry.daily_hours),
        startAt: entry.start_at,
        endAt: entry.end_at,
        breakTime: String(entry.break_time ?? 0),
      })),
    );
  }
}
