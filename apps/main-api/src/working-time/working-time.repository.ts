import { Injectable } from '@nestjs/common';
import { RequestTenantScope } from '@platform/database';
import type { WorkingTimeEntryInputDto } from './dto/working-time.dto';
import { WorkingTimeEntry } from './working-time-entry.entity';

/** The statements of working weeks beyond one entity's reads, in the request's scope. */
@Injectable()
export class WorkingTimeRepository {
  constructor(private readonly scope: RequestTenantScope) {}

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
