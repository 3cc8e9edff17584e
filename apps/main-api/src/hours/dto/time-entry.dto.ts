import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  formatTimestamp,
  IsDateOnly,
  IsEntityId,
  MayBeAbsent,
  MayBeAbsentOrNull,
  TIMESTAMP_PATTERN,
  API_ROW_VERSION,
} from '@platform/contracts';
import { IsNumber, Max, Min } from 'class-validator';
import type { TimeEntry } from '../time-entry.entity';

export class CreateTimeEntryDto {
  @ApiProperty({
    type: 'integer',
    example: 12,
    description: 'A user of your company; roles 4 and 5 may only give their own id',
  })
  @IsEntityId()
  user_id!: number;

  @ApiProperty({ type: 'integer', example: 88, description: 'A project of your company' })
  @IsEntityId()
  project_id!: number;

  @ApiPropertyOptional({ type: 'integer', example: 301, description: 'A task of that project' })
  @MayBeAbsent()
  @IsEntityId()
  task_id?: number;

  @ApiPropertyOptional({
    type: 'integer',
    example: 5,
    description: "The position worked in; default the user's position",
  })
  @MayBeAbsent()
  @IsEntityId()
  user_position_id?: number;

  @ApiProperty({ type: String, format: 'date', example: '2026-11-20', description: 'The day worked' })
  @IsDateOnly()
  date!: string;

  @ApiProperty({ example: 3.5, minimum: 0.01, maximum: 24, description: 'More than 0, at most 24' })
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0.01)
  @Max(24)
  hours!: number;
}

/**
 * `PUT /hours/{id}`: only the fields sent change, under the rules of create (a task of the entry's
 * project, a real day, 0 < hours ≤ 24). The nullable references take `null` to clear them.
 */
export class UpdateTimeEntryDto extends PartialType(
  OmitType(CreateTimeEntryDto, ['task_id', 'user_position_id'] as const),
  { skipNullProperties: false },
) {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 301,
    description:
      "A task of the entry's project (as it is after the update); null takes the entry off its task",
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  task_id?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 5,
    description: 'The position worked in; null leaves the hours without a position. Left out: unchanged',
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  user_position_id?: number | null;
}

export class TimeEntryDto {
  @ApiProperty({ type: 'integer', example: 9001 }) id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;
  @ApiProperty({ type: 'integer', example: 12 }) user_id!: number;
  @ApiProperty({ type: 'integer', example: 88 }) project_id!: number;
  @ApiProperty({ type: 'integer', example: 301, nullable: true }) task_id!: number | null;
  @ApiProperty({ type: 'integer', example: 5, nullable: true }) user_position_id!: number | null;
  @ApiProperty({ type: String, format: 'date', example: '2026-11-20' }) date!: string;
  @ApiProperty({ example: 3.5, description: 'Hours, more than 0 and at most 24' }) hours!: number;
  @ApiProperty({ example: '2026-11-22 10:15:00', pattern: TIMESTAMP_PATTERN, description: 'UTC' })
  created_at!: string;

  static from(entry: TimeEntry): TimeEntryDto {
    return {
      id: entry.id,
      version: entry.version,
      user_id: entry.userId,
      project_id: entry.projectId,
      task_id: entry.taskId,
      user_position_id: entry.userPositionId,
      date: entry.date,
      hours: Number(entry.hours),
      created_at: formatTimestamp(entry.createdAt),
    };
  }
}
