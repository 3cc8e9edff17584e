import { Injectable } from '@nestjs/common';
import { TenantRepositoryFactory, type TenantRead, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import type { SelectQueryBuilder } from 'typeorm';
import { User } from '../users/user.entity';
import type { ReplaceWorkingWeekDto, WorkingTimeEntryDto } from './dto/working-time.dto';
import { WorkingTimeEntry } from './working-time-entry.entity';
import { WorkingTimeRepository } from './working-time.repository';
import { ResourceNotFoundError } from '../errors/main-api.errors';

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

@Injectable()
export class WorkingTimeService {
  private readonly users: TenantRepository<User>;
  private readonly entries: TenantRepository<WorkingTimeEntry>;
  // Every week answer comes from these reads (the planner's on every report), built once (CompiledRead).
  private readonly weeksOfUsers: TenantRead<WorkingTimeEntry, { userIds: number[] }>;
  private readonly weeksOfCompany: TenantRead<WorkingTimeEntry, Record<string, never>>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly repository: WorkingTimeRepository,
  ) {
    this.users = repositories.for(User);
    this.entries = repositories.for(WorkingTimeEntry);
    this.weeksOfUsers = this.entries.compile('entry', ['userIds'], (query) =>
      selectWeekEntries(query).andWhere('entry.user_id = ANY(:userIds)'),
    );
    this.weeksOfCompany = this.entries.compile('entry', [], selectWeekEntries);
  }

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
    const entries = userIds
      ? await this.weeksOfUsers.rows<WorkingTimeEntryDto>({ userIds })
      : await this.weeksOfCompany.rows<WorkingTimeEntryDto>({});
    const weeks: Record<string, WorkingTimeEntryDto[]> = {};
    for (const entry of entries) {
      (weeks[String(entry.user_id)] ??= []).push(entry);
    }
    return weeks;
  }

  private async requireUser(userId: number): Promise<void> {
    if (!(await this.users.findById(userId))) {
      throw new ResourceNotFoundError(`User ${userId}`);
    }
  }
}
