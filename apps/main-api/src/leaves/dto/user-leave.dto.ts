import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  API_DATE_TIME,
  API_TIMESTAMP,
  formatTimestamp,
  IsDateOnly,
  IsEntityId,
  IsEntityIdList,
  IsLeaveTypeId,
  IsUtcDateTime,
  MayBeAbsent,
} from '@platform/contracts';
import { IsBoolean } from 'class-validator';
import type { UserLeaveRow } from '../leaves.repository';

/** docs/spec/interfaces.md "User leave" request. */
export class CreateUserLeaveDto {
  @ApiProperty({ example: 12 })
  @IsEntityId()
  userId!: number;

  @ApiProperty({
    example: 1,
    description: '1 Vacation, 2 Sick leave, 3 Personal, 4 Parental, 5 Unpaid, 6 Other',
  })
  @IsLeaveTypeId()
  leaveTypeId!: number;

  @ApiProperty({ example: '2026-12-21T00:00:00Z', description: 'UTC, ISO 8601 with Z' })
  @IsUtcDateTime('2026-12-21T00:00:00Z')
  start!: string;

  @ApiProperty({ example: '2026-12-24T23:59:59Z', description: 'UTC, ISO 8601 with Z; after start' })
  @IsUtcDateTime('2026-12-24T23:59:59Z')
  end!: string;

  @ApiPropertyOptional({ example: true, description: 'Whole days off; default false' })
  @MayBeAbsent()
  @IsBoolean()
  allDay?: boolean;
}

/** `GET /user/leaves?user_ids=1,2&from=YYYY-MM-DD&to=YYYY-MM-DD` (docs/spec/decisions.md §8). */
export class UserLeavesQueryDto {
  @ApiPropertyOptional({ example: '1,2', description: 'Comma-separated user ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiProperty({ example: '2026-12-01', description: 'First day of the period (YYYY-MM-DD)' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({ example: '2026-12-31', description: 'Last day of the period (YYYY-MM-DD), included' })
  @IsDateOnly()
  to!: string;
}

/** docs/spec/interfaces.md "User leave" response. */
export class UserLeaveDto {
  @ApiProperty({ example: 3 })
  id!: number;

  @ApiProperty({ example: 12 })
  user_id!: number;

  @ApiProperty({ example: 1 })
  company_id!: number;

  @ApiProperty({ example: 1 })
  leave_type_id!: number;

  @ApiProperty({ ...API_DATE_TIME, example: '2026-12-21T00:00:00.000Z' })
  start!: string;

  @ApiProperty({ ...API_DATE_TIME, example: '2026-12-24T23:59:59.000Z' })
  end!: string;

  @ApiProperty({ example: true })
  all_day!: boolean;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  /** From a UserLeave, or a row of the leaves in a period. */
  static from(leave: UserLeaveRow): UserLeaveDto {
    return {
      id: leave.id,
      user_id: leave.userId,
      company_id: leave.companyId,
      leave_type_id: leave.leaveTypeId,
      start: leave.start.toISOString(),
      end: leave.end.toISOString(),
      all_day: leave.allDay,
      created_at: formatTimestamp(leave.createdAt),
      updated_at: formatTimestamp(leave.updatedAt),
    };
  }
}
