import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  formatTimestamp,
  IsDateOnly,
  IsEntityId,
  MayBeAbsent,
  MayBeAbsentOrNull,
  TaskStatus,
} from '@platform/contracts';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import type { TaskAttachment } from '../task-attachment.entity';
import type { Task } from '../task.entity';

const TASK_STATUSES = Object.values(TaskStatus);

export class CreateTaskDto {
  @ApiProperty({ example: 88, description: 'A project of your company' })
  @IsEntityId()
  project_id!: number;

  @ApiProperty({ example: 'Key visual', maxLength: 300 })
  @IsString()
  @Length(1, 300)
  name!: string;

  @ApiPropertyOptional({ example: 'Three options for the spring campaign' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(20000)
  description?: string;

  @ApiPropertyOptional({ enum: TASK_STATUSES, description: 'Default nueva' })
  @MayBeAbsent()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  @ApiPropertyOptional({ example: 12, description: 'A user of your company' })
  @MayBeAbsent()
  @IsEntityId()
  assignee_id?: number;

  @ApiPropertyOptional({ example: '2026-03-02' })
  @MayBeAbsent()
  @IsDateOnly()
  start?: string;

  @ApiPropertyOptional({ example: '2026-03-06' })
  @MayBeAbsent()
  @IsDateOnly()
  end?: string;

  @ApiPropertyOptional({ example: 6, description: 'Hours' })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(100_000)
  estimated_time?: number;
}

/** Partial update; a task stays on its project. */
export class UpdateTaskDto extends PartialType(OmitType(CreateTaskDto, ['project_id'] as const), {
  skipNullProperties: false,
}) {}

export class TaskDto {
  @ApiProperty({ example: 301 }) id!: number;
  @ApiProperty({ example: 88 }) project_id!: number;
  @ApiProperty({ example: 'Key visual' }) name!: string;
  @ApiProperty({ example: '' }) description!: string;
  @ApiProperty({ enum: TASK_STATUSES, example: 'nueva' }) status!: string;
  @ApiProperty({ example: 12, nullable: true, type: Number }) assignee_id!: number | null;
  @ApiProperty({ example: '2026-03-02', nullable: true, type: String }) start!: string | null;
  @ApiProperty({ example: '2026-03-06', nullable: true, type: String }) end!: string | null;
  @ApiProperty({ example: 6 }) estimated_time!: number;
  @ApiProperty({ example: '2026-11-22 10:15:00' }) created_at!: string;
  @ApiProperty({ example: '2026-11-22 10:15:00' }) updated_at!: string;

  static from(task: Task): TaskDto {
    return {
      id: task.id,
      project_id: task.projectId,
      name: task.name,
      description: task.description,
      status: task.status,
      assignee_id: task.assigneeId,
      start: task.start,
      end: task.end,
      estimated_time: Number(task.estimatedTime),
      created_at: formatTimestamp(task.createdAt),
      updated_at: formatTimestamp(task.updatedAt),
    };
  }
}

/** interfaces.md "Task attachment from external source" request. */
export class CreateAttachmentDto {
  @ApiProperty({ example: 'https://drive.example/file/d/abc', description: "The store's file name or link" })
  @IsString()
  @Length(1, 2000)
  filename!: string;

  @ApiProperty({ example: 'moodboard.pdf' })
  @IsString()
  @Length(1, 500)
  originalname!: string;

  @ApiProperty({ example: 204800, description: 'Bytes' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;

  @ApiProperty({ example: true })
  @IsBoolean()
  available!: boolean;

  @ApiPropertyOptional({ example: null, nullable: true, type: String })
  @MayBeAbsentOrNull()
  @IsString()
  @MaxLength(2000)
  session_token?: string | null;
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
};

/** interfaces.md attachment response. */
export class AttachmentDto {
  @ApiProperty({ example: 5 }) id!: number;
  @ApiProperty({ example: 'https://drive.example/file/d/abc', nullable: true, type: String }) url!:
    string | null;
  @ApiProperty({ example: 'moodboard.pdf' }) name!: string;
  @ApiProperty({ example: '2026-11-22 10:15:00' }) created_at!: string;
  @ApiProperty({ example: 'google_drive' }) source!: string;
  @ApiProperty({ example: 204800 }) size!: number;
  @ApiProperty({ example: 'pdf' }) file_type!: string;
  @ApiProperty({ example: 'application/pdf' }) media_type!: string;
  @ApiProperty({ example: 12, nullable: true, type: Number }) user_id!: number | null;
  @ApiProperty({ example: null, nullable: true, type: Number }) discussions_id!: number | null;
  @ApiProperty({ example: null, nullable: true, type: String }) session_token!: string | null;

  static from(attachment: TaskAttachment): AttachmentDto {
    const extension = /\.([a-z0-9]{1,10})$/i.exec(attachment.originalName)?.[1]?.toLowerCase() ?? '';
    return {
      id: attachment.id,
      url: /^https?:\/\//.test(attachment.filename) ? attachment.filename : null,
      name: attachment.originalName,
      created_at: formatTimestamp(attachment.createdAt),
      source: attachment.source,
      size: Number(attachment.size),
      file_type: extension,
      media_type: MEDIA_TYPES[extension] ?? 'application/octet-stream',
      user_id: attachment.userId,
      discussions_id: attachment.discussionsId,
      session_token: attachment.sessionToken,
    };
  }
}
