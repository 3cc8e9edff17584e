import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatTimestamp, IsDateOnly, IsEntityId, MayBeAbsent } from '@platform/contracts';
import { IsNumber, Max, Min } from 'class-validator';
import type { TimeEntry } from '../time-entry.entity';

export class CreateTimeEntryDto {
  @ApiProperty({ example: 12, description: 'A user of your company' })
  @IsEntityId()
  user_id!: number;

  @ApiProperty({ example: 88, description: 'A project of your company' })
  @IsEntityId()
  project_id!: number;

  @ApiPropertyOptional({ example: 301, description: 'A task of that project' })
  @MayBeAbsent()
  @IsEntityId()
  task_id?: number;

  @ApiPropertyOptional({ example: 5, description: "The position worked in; default the user's position" })
  @MayBeAbsent()
  @IsEntityId()
  user_position_id?: number;

  @ApiProperty({ example: '2026-11-20' })
  @IsDateOnly()
  date!: string;

  @ApiProperty({ example: 3.5, description: 'More than 0, at most 24' })
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0.01)
  @Max(24)
  hours!: number;
}

export class TimeEntryDto {
  @ApiProperty({ example: 9001 }) id!: number;
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: 88 }) project_id!: number;
  @ApiProperty({ example: 301, nullable: true, type: Number }) task_id!: number | null;
  @ApiProperty({ example: 5, nullable: true, type: Number }) user_position_id!: number | null;
  @ApiProperty({ example: '2026-11-20' }) date!: string;
  @ApiProperty({ example: 3.5 }) hours!: number;
  @ApiProperty({ example: '2026-11-22 10:15:00' }) created_at!: string;

  static from(entry: TimeEntry): TimeEntryDto {
    return {
      id: entry.id,
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
