import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { API_TIMESTAMP, formatTimestamp, IsDateOnly, MayBeAbsent } from '@platform/contracts';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import type { TimeEntryStatus } from '../time-entry.entity';
import type { TimesheetLock } from '../timesheet-lock.entity';
import type { Timesheet } from '../timesheets.service';
import { TimeEntryDetailDto } from './time-entry-detail.dto';

export const TIMESHEET_STATUSES = ['empty', 'draft', 'rejected', 'submitted', 'approved'] as const;
export type TimesheetStatus = (typeof TIMESHEET_STATUSES)[number];

/** `POST .../approve` and `.../reject`: a remark for the person (why it was rejected). */
export class ReviewTimesheetDto {
  @ApiPropertyOptional({ maxLength: 500, example: 'Split the Friday hours by task, please' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  note?: string;
}

/** `PUT /v1/timesheet-lock`. */
export class PutTimesheetLockDto {
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    example: '2026-10-31',
    description:
      'No entry dated on or before this day may be created, changed or deleted; null lifts the lock',
  })
  @ValidateIf((_, value) => value !== null)
  @IsDateOnly()
  locked_until!: string | null;
}

export class TimesheetLockDto {
  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2026-10-31' })
  locked_until!: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 1, description: 'Who set it' })
  updated_by_user_id!: number | null;

  @ApiProperty({ ...API_TIMESTAMP, type: String, nullable: true, example: '2026-11-02 09:00:00' })
  updated_at!: string | null;

  static from(lock: TimesheetLock | null): TimesheetLockDto {
    return {
      locked_until: lock?.lockedUntil ?? null,
      updated_by_user_id: lock?.updatedByUserId ?? null,
      updated_at: lock ? formatTimestamp(lock.updatedAt) : null,
    };
  }
}

/** A person's ISO week of time entries. */
export class TimesheetDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: '2026-W48' }) iso_week!: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-11-23', description: 'Its Monday' })
  from!: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-11-29', description: 'Its Sunday' })
  to!: string;

  @ApiProperty({
    enum: TIMESHEET_STATUSES,
    example: 'submitted',
    description:
      "The week's: empty without entries; else rejected if any entry is, draft if any is, submitted if any is, approved when all are",
  })
  status!: TimesheetStatus;

  @ApiProperty({ example: 38.5 }) total_hours!: number;
  @ApiProperty({ example: 32 }) billable_hours!: number;
  @ApiProperty({ type: [TimeEntryDetailDto] }) entries!: TimeEntryDetailDto[];

  static from(sheet: Timesheet): TimesheetDto {
    const sum = (entries: Timesheet['entries']) =>
      Math.round(entries.reduce((total, entry) => total + Number(entry.hours) * 100, 0)) / 100;
    return {
      user_id: sheet.userId,
      iso_week: sheet.week.name,
      from: sheet.week.from,
      to: sheet.week.to,
      status: statusOf(sheet.entries.map((entry) => entry.status)),
      total_hours: sum(sheet.entries),
      billable_hours: sum(sheet.entries.filter((entry) => entry.billable)),
      entries: sheet.entries.map((entry) => TimeEntryDetailDto.from(entry)),
    };
  }
}

function statusOf(statuses: TimeEntryStatus[]): TimesheetStatus {
  if (statuses.length === 0) {
    return 'empty';
  }
  for (const status of ['rejected', 'draft', 'submitted'] as const) {
    if (statuses.includes(status)) {
      return status;
    }
  }
  return 'approved';
}
