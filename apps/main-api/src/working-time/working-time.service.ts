import { Injectable } from '@nestjs/common';
import { RequestValidationError } from '@platform/runtime';
import type { ReplaceWorkingWeekDto, WorkingTimeEntryDto } from './dto/working-time.dto';
import { WorkingTimeRepository } from './working-time.repository';
import { ResourceNotFoundError } from '../errors/main-api.errors';

@Injectable()
export class WorkingTimeService {
  constructor(private readonly repository: WorkingTimeRepository) {}

  /** Replaces the user's week in one transaction: never half old, half new. */
  async replaceWeek(userId: number, body: ReplaceWorkingWeekDto): Promise<WorkingTimeEntryDto[]> {
    await this.requireUser(userId);
    const days = body.entries.map((entry) => entry.day_of_week);
    if (new Set(days).size !== days.length) {
      throw new RequestValidationError([
        {
          field: 'entries',
          validation: 'uniqueDays',
          message: 'entries must name each day_of_week at most once',
        },
      ]);
    }
    body.entries.forEach((entry, index) => {
      if (entry.start_at >= entry.end_at) {
        throw new RequestValidationError([
          {
            field: `entries.${index}.start_at`,
            validation: 'beforeEndAt',
            message: `entries.${index}.start_at must be before end_at`,
          },
        ]);
      }
    });
    await this.repository.replaceWeek(userId, body.entries);
    return this.week(userId);
  }

  async week(userId: number): Promise<WorkingTimeEntryDto[]> {
    await this.requireUser(userId);
    return (await this.companyWeeks([userId]))[String(userId)] ?? [];
  }

  /** Every user of the company with a working week (or only the users asked for), keyed by user id. */
  async companyWeeks(userIds?: number[]): Promise<Record<string, WorkingTimeEntryDto[]>> {
    const entries = await this.repository.weekEntries(userIds);
    const weeks: Record<string, WorkingTimeEntryDto[]> = {};
    for (const entry of entries) {
      (weeks[String(entry.user_id)] ??= []).push(entry);
    }
    return weeks;
  }

  private async requireUser(userId: number): Promise<void> {
    if (!(await this.repository.userExists(userId))) {
      throw new ResourceNotFoundError(`User ${userId}`);
    }
  }
}
