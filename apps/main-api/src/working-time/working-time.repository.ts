import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope } from '@platform/database';
import { User } from '../users/user.entity';
import type { WorkingTimeEntryDto, WorkingTimeEntryInputDto } from './dto/working-time.dto';
import { WorkingTimeEntry } from './working-time-entry.entity';

// Every week answer comes from these (the planner's on every report): fixed texts, prepared once per
// connection, selecting straight into WorkingTimeEntryDto's fields in its order. Making entities of
// 250 entries (timestamps parsed, times converted) and mapping them again cost more than the rest of
// the planner's look-up (bench/README.md, round 4).
const WEEK_ENTRY_FIELDS = `entry.daily_hours::float8 AS daily_hours, entry.day_of_week,
       to_char(entry.start_at, 'HH24:MI:SS') AS start_at, to_char(entry.end_at, 'HH24:MI:SS') AS end_at,
       entry.user_id, entry.break_time::float8 AS break_time`;

const WEEKS_OF_USERS = `SELECT ${WEEK_ENTRY_FIELDS}
  FROM working_time_entries entry
 WHERE entry.company_id = $1 AND entry.user_id = ANY($2)
 ORDER BY entry.user_id, entry.day_of_week`;
const WEEKS_OF_USERS_NAME = preparedStatementName(WEEKS_OF_USERS);

const WEEKS_OF_COMPANY = `SELECT ${WEEK_ENTRY_FIELDS}
  FROM working_time_entries entry
 WHERE entry.company_id = $1
 ORDER BY entry.user_id, entry.day_of_week`;
const WEEKS_OF_COMPANY_NAME = preparedStatementName(WEEKS_OF_COMPANY);

/** The working weeks of the request's company. */
@Injectable()
export class WorkingTimeRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** The entries of these users' weeks (of every user without `userIds`), by user, then day. */
  weekEntries(userIds?: number[]): Promise<WorkingTimeEntryDto[]> {
    const companyId = this.scope.companyId();
    return userIds
      ? this.scope.sql.select<WorkingTimeEntryDto>(WEEKS_OF_USERS, [companyId, userIds], WEEKS_OF_USERS_NAME)
      : this.scope.sql.select<WorkingTimeEntryDto>(WEEKS_OF_COMPANY, [companyId], WEEKS_OF_COMPANY_NAME);
  }

  async userExists(userId: number): Promise<boolean> {
    return (await this.scope.repository(User).findById(userId)) !== null;
  }

  /** Replaces the user's week in one transaction: never half old, half new. */
  async replaceWeek(userId: number, entries: WorkingTimeEntryInputDto[]): Promise<void> {
    await this.scope.transaction(async (unit) => {
      const week = unit.repository(WorkingTimeEntry);
      await week.deleteWhere({ userId });
      await week.insertMany(
        entries.map((entry) => ({
          userId,
          dayOfWeek: entry.day_of_week,
          dailyHours: String(entry.daily_hours),
          startAt: entry.start_at,
          endAt: entry.end_at,
          breakTime: String(entry.break_time ?? 0),
        })),
      );
    });
  }
}
