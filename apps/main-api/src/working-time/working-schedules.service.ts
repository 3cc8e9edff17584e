import { Injectable } from '@nestjs/common';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import type {
  CreateWorkingScheduleDto,
  ReplaceWorkingWeekDto,
  WorkingScheduleDto,
} from './dto/working-time.dto';
import { WorkingTimeRepository, type ScheduleRow } from './working-time.repository';
import { assertValidWeek, utcToday } from './working-week';

/**
 * A person's working weeks by first day (issue 38): each in force from its `effective_from` until
 * the next one's, the first also before it.
 */
@Injectable()
export class WorkingSchedulesService {
  constructor(private readonly repository: WorkingTimeRepository) {}

  /** All the person's schedules, oldest first; with `at`, the one in force that day (404 if none). */
  async list(userId: number, at?: string): Promise<WorkingScheduleDto[]> {
    await this.requireUser(userId);
    const rows = await this.repository.schedules([userId], utcToday(), at ? { from: at, to: at } : null);
    const asked = rows.filter((row) => row.in_period).map(scheduleOf);
    if (at !== undefined && asked.length === 0) {
      throw new ResourceNotFoundError(`Working schedule of user ${userId}`);
    }
    return asked;
  }

  /** The person's schedule starting that day, or the 404. */
  async get(userId: number, effectiveFrom: string): Promise<WorkingScheduleDto> {
    const found = (await this.list(userId)).find((schedule) => schedule.effective_from === effectiveFrom);
    if (!found) {
      throw new ResourceNotFoundError(`Working schedule ${effectiveFrom} of user ${userId}`);
    }
    return found;
  }

  /** A new schedule from its first day; one already starting that day is a 422. */
  async create(userId: number, body: CreateWorkingScheduleDto): Promise<WorkingScheduleDto> {
    await this.requireUser(userId);
    assertValidWeek(body.entries);
    await this.repository.createSchedule(userId, body.effective_from, body.entries);
    return this.get(userId, body.effective_from);
  }

  /** The week of the schedule starting that day becomes `body.entries` (`If-Match`: its version). */
  async replace(
    userId: number,
    effectiveFrom: string,
    body: ReplaceWorkingWeekDto,
  ): Promise<WorkingScheduleDto> {
    await this.requireUser(userId);
    assertValidWeek(body.entries);
    await this.repository.replaceSchedule(userId, effectiveFrom, body.entries);
    return this.get(userId, effectiveFrom);
  }

  /** Removes the schedule starting that day: the one before it then runs on (or the next, before it). */
  async remove(userId: number, effectiveFrom: string): Promise<void> {
    await this.requireUser(userId);
    await this.repository.deleteSchedule(userId, effectiveFrom);
  }

  private async requireUser(userId: number): Promise<void> {
    if (!(await this.repository.userExists(userId))) {
      throw new ResourceNotFoundError(`User ${userId}`);
    }
  }
}

function scheduleOf(row: ScheduleRow): WorkingScheduleDto {
  return { effective_from: row.effective_from, entries: row.entries, version: row.version };
}
