import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantRead } from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import { User } from '../users/user.entity';
import type { WorkingTimeEntryDto, WorkingTimeEntryInputDto } from './dto/working-time.dto';
import { WorkingTimeEntry } from './working-time-entry.entity';

/**
 * A week answer's values, selected straight into WorkingTimeEntryDto's fields: making entities of
 * 250 entries (timestamps parsed, times converted) and mapping them again cost more than the rest
 * of the planner's look-up (bench/README.md, round 4).
 */
function selectWeekEntries(
  query: SelectQueryBuilder<WorkingTimeEntry>,
): SelectQueryBuilder<WorkingTimeEntry> {
  return query
    .select('entry.daily_hours::float8', 'daily_hours')
    .addSelect('entry.day_of_week', 'day_of_week')
    .addSelect("to_char(entry.start_at, 'HH24:MI:SS')", 'start_at')
    .addSelect("to_char(entry.end_at, 'HH24:MI:SS')", 'end_at')
    .addSelect('entry.user_id', 'user_id')
    .addSelect('entry.break_time::float8', 'break_time')
    .orderBy('entry.user_id', 'ASC')
    .addOrderBy('entry.day_of_week', 'ASC');
}

/** The working weeks of the request's company. */
@Injectable()
export class WorkingTimeRepository {
  // Every week answer comes from these reads (the planner's on every report), built once (CompiledRead).
  private readonly weeksOfUsers: TenantRead<WorkingTimeEntry, { userIds: number[] }>;
  private readonly weeksOfCompany: TenantRead<WorkingTimeEntry, Record<string, never>>;

  constructor(private readonly scope: RequestTenantScope) {
    const entries = scope.repository(WorkingTimeEntry);
    this.weeksOfUsers = entries.compile('entry', ['userIds'], (query) =>
      selectWeekEntries(query).andWhere('entry.user_id = ANY(:userIds)'),
    );
    this.weeksOfCompany = entries.compile('entry', [], selectWeekEntries);
  }

  /** The entries of these users' weeks (of every user without `userIds`), by user, then day. */
  weekEntries(userIds?: number[]): Promise<WorkingTimeEntryDto[]> {
    return userIds
      ? this.weeksOfUsers.rows<WorkingTimeEntryDto>({ userIds })
      : this.weeksOfCompany.rows<WorkingTimeEntryDto>({});
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
