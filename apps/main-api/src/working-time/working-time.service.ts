import { Injectable } from '@nestjs/common';
import type {
  ReplaceWorkingWeekDto,
  WorkingScheduleWeekDto,
  WorkingTimeEntryDto,
} from './dto/working-time.dto';
import { WorkingTimeRepository } from './working-time.repository';
import { assertValidWeek, utcToday } from './working-week';
import { ResourceNotFoundError } from '../errors/main-api.errors';

/**
 * The interface's working-time routes (docs/spec/interfaces.md), on schedules with history (issue
 * 38): a user's week is the schedule in force today (UTC), and a new week applies from today on, so
 * past days keep the week they had.
 */
@Injectable()
export class WorkingTimeService {
  constructor(private readonly repository: WorkingTimeRepository) {}

  /**
   * The week of the schedule starting today becomes `body.entries` (the schedule is made when none
   * starts today); earlier schedules keep past days, later ones stay. One transaction.
   */
  async replaceWeek(userId: number, body: ReplaceWorkingWeekDto): Promise<WorkingTimeEntryDto[]> {
    await this.requireUser(userId);
    assertValidWeek(body.entries);
    await this.repository.replaceOrCreateSchedule(userId, utcToday(), body.entries);
    return this.week(userId);
  }

  /** The user's week in force today. */
  async week(userId: number): Promise<WorkingTimeEntryDto[]> {
    await this.requireUser(userId);
    return (await this.companyWeeks([userId]))[String(userId)] ?? [];
  }

  /** The weeks in force today of every user of the company (or of those asked for), keyed by user id. */
  async companyWeeks(userIds?: number[]): Promise<Record<string, WorkingTimeEntryDto[]>> {
    const entries = await this.repository.weekEntries(userIds, utcToday());
    const weeks: Record<string, WorkingTimeEntryDto[]> = {};
    for (const entry of entries) {
      (weeks[String(entry.user_id)] ??= []).push(entry);
    }
    return weeks;
  }

  /**
   * For the planner's look-up, from one statement: each user's week in force today (`workingTime`,
   * as `companyWeeks` answers it) and their schedules (`schedules`): in a period, the one in force
   * on its first day and every later one starting in it; without a period, all of them. Users
   * without a schedule are absent from both, and from `workingTime` those whose week is empty.
   */
  async forPlanner(
    userIds: readonly number[],
    period: { from: string; to: string } | null,
  ): Promise<{
    workingTime: Record<string, WorkingTimeEntryDto[]>;
    schedules: Record<string, WorkingScheduleWeekDto[]>;
  }> {
    const rows = await this.repository.schedules(userIds, utcToday(), period);
    const workingTime: Record<string, WorkingTimeEntryDto[]> = {};
    const schedules: Record<string, WorkingScheduleWeekDto[]> = {};
    for (const row of rows) {
      if (row.in_force_today && row.entries.length > 0) {
        workingTime[String(row.user_id)] = row.entries;
      }
      if (row.in_period) {
        (schedules[String(row.user_id)] ??= []).push({
          effective_from: row.effective_from,
          entries: row.entries,
        });
      }
    }
    return { workingTime, schedules };
  }

  private async requireUser(userId: number): Promise<void> {
    if (!(await this.repository.userExists(userId))) {
      throw new ResourceNotFoundError(`User ${userId}`);
    }
  }
}
