import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  API_DATE_TIME,
  API_ROW_VERSION,
  API_TIMESTAMP,
  formatNullableTimestamp,
  formatTimestamp,
  IsDateOnly,
  IsEntityId,
  IsEntityIdList,
  IsLeaveTypeId,
  ListQueryDto,
  MayBeAbsent,
  MayBeAbsentOrNull,
} from '@platform/contracts';
import { IsBoolean, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { LEAVE_TIME } from '../leave-times';
import { LEAVE_STATUSES, type LeaveStatus, type UserLeave } from '../user-leave.entity';

const LEAVE_TIME_FORMATS =
  'An instant (ISO 8601 with Z or an offset), or a local date-time without offset (YYYY-MM-DDTHH:mm[:ss]) ' +
  "read in the person's time zone, daylight saving included; with all_day: true also a plain date " +
  'YYYY-MM-DD (a UTC date';
const LEAVE_TIME_MESSAGE =
  '$property must be a date-time (with Z, an offset, or none for local time) or a date';

/** `POST /v1/leaves`. */
export class CreateLeaveDto {
  @ApiProperty({ example: 12, description: 'Whose leave: yours for roles 4-5' })
  @IsEntityId()
  user_id!: number;

  @ApiProperty({
    example: 1,
    description: '1 Vacation, 2 Sick leave, 3 Personal, 4 Parental, 5 Unpaid, 6 Other',
  })
  @IsLeaveTypeId()
  leave_type_id!: number;

  @ApiProperty({ example: '2027-01-18T13:00', description: `${LEAVE_TIME_FORMATS}: that day's 00:00Z)` })
  @IsString()
  @Matches(LEAVE_TIME, { message: LEAVE_TIME_MESSAGE })
  start!: string;

  @ApiProperty({
    example: '2027-01-18T17:00',
    description: `${LEAVE_TIME_FORMATS}, included: that day's 23:59:59Z). After start`,
  })
  @IsString()
  @Matches(LEAVE_TIME, { message: LEAVE_TIME_MESSAGE })
  end!: string;

  @ApiPropertyOptional({ example: false, description: 'Whole days off; default false' })
  @MayBeAbsent()
  @IsBoolean()
  all_day?: boolean;

  @ApiPropertyOptional({ type: String, example: 'Dentist', nullable: true, maxLength: 500 })
  @MayBeAbsentOrNull()
  @IsString()
  @MaxLength(500)
  note?: string | null;

  @ApiPropertyOptional({
    enum: ['requested', 'approved'],
    description:
      'Roles 1-3: approved (default) or requested. Roles 4-5 always request (requested; approved is a 403)',
  })
  @MayBeAbsent()
  @IsIn(['requested', 'approved'])
  status?: 'requested' | 'approved';
}

/** `POST /v1/leaves/{id}/reject`. */
export class RejectLeaveDto {
  @ApiPropertyOptional({
    type: String,
    example: 'Launch week',
    nullable: true,
    maxLength: 500,
    description: "Why; replaces the leave's note when sent",
  })
  @MayBeAbsentOrNull()
  @IsString()
  @MaxLength(500)
  note?: string | null;
}

/** `GET /v1/leaves`: the list parameters, and the leaves of some people touching a period. */
export class LeavesListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ example: '1,2', description: 'Comma-separated user ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({
    example: '2027-01-01',
    description: 'Leaves ending on or after this day (YYYY-MM-DD, its 00:00Z)',
  })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({
    example: '2027-12-31',
    description: 'Leaves starting on or before this day (YYYY-MM-DD, until its 24:00Z)',
  })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;

  @ApiPropertyOptional({ enum: LEAVE_STATUSES, description: 'Only leaves with this status' })
  @MayBeAbsent()
  @IsIn(LEAVE_STATUSES)
  status?: LeaveStatus;
}

/** A leave with its status (`/v1/leaves`). */
export class LeaveDto {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty(API_ROW_VERSION) version!: number;
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: 1 }) leave_type_id!: number;

  @ApiProperty({ ...API_DATE_TIME, example: '2027-01-18T18:00:00.000Z', description: 'UTC' })
  start!: string;

  @ApiProperty({ ...API_DATE_TIME, example: '2027-01-18T22:00:00.000Z', description: 'UTC' })
  end!: string;

  @ApiProperty({ example: false }) all_day!: boolean;

  @ApiProperty({
    enum: LEAVE_STATUSES,
    example: 'requested',
    description: 'Only approved leaves count for capacity',
  })
  status!: LeaveStatus;

  @ApiProperty({ type: String, example: 'Dentist', nullable: true }) note!: string | null;

  @ApiProperty({
    type: Number,
    example: null,
    nullable: true,
    description: 'Who set the status: approved, rejected or cancelled it, or created it approved',
  })
  decided_by_user_id!: number | null;

  @ApiProperty({ ...API_TIMESTAMP, type: String, example: null, nullable: true, description: 'UTC' })
  decided_at!: string | null;

  @ApiProperty({ ...API_TIMESTAMP, example: '2027-01-10 10:15:00', description: 'UTC' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2027-01-10 10:15:00', description: 'UTC' })
  updated_at!: string;

  static from(leave: UserLeave): LeaveDto {
    return {
      id: leave.id,
      version: leave.version,
      user_id: leave.userId,
      leave_type_id: leave.leaveTypeId,
      start: leave.start.toISOString(),
      end: leave.end.toISOString(),
      all_day: leave.allDay,
      status: leave.status,
      note: leave.note,
      decided_by_user_id: leave.decidedByUserId,
      decided_at: formatNullableTimestamp(leave.decidedAt),
      created_at: formatTimestamp(leave.createdAt),
      updated_at: formatTimestamp(leave.updatedAt),
    };
  }
}

/** The company's leave policy (`/v1/leave-policy`). */
export class LeavePolicyDto {
  @ApiProperty({
    example: true,
    description:
      "true: a person's own leave (roles 4-5) made through POST /user/leaves waits for a manager's approval " +
      '(requested); false: it counts at once (approved)',
  })
  approval_required!: boolean;
}

/** `PUT /v1/leave-policy`. */
export class UpdateLeavePolicyDto {
  @ApiProperty({ example: true, description: "Whether a person's own leave waits for approval" })
  @IsBoolean()
  approval_required!: boolean;
}
