import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  formatTimestamp,
  IsDateOnly,
  IsEntityId,
  MayBeAbsent,
  MayBeAbsentOrNull,
  API_TIMESTAMP,
  API_ROW_VERSION,
} from '@platform/contracts';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { TaskStatus } from '../task-status';
import { attachmentUrl } from '../attachment-links';
import { ATTACHMENT_SOURCES, type AttachmentSource, type TaskAttachment } from '../task-attachment.entity';
import type { Task } from '../task.entity';

const TASK_STATUSES = Object.values(TaskStatus);
const TIMESTAMP = { ...API_TIMESTAMP, description: 'UTC' } as const;

export class CreateTaskDto {
  @ApiProperty({ type: 'integer', example: 88, description: 'A project of your company' })
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

  @ApiPropertyOptional({ enum: TASK_STATUSES, example: TaskStatus.New, description: 'Default nueva' })
  @MayBeAbsent()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  @ApiPropertyOptional({ type: 'integer', example: 12, description: 'A user of your company' })
  @MayBeAbsent()
  @IsEntityId()
  assignee_id?: number;

  @ApiPropertyOptional({ type: String, format: 'date', example: '2026-03-02' })
  @MayBeAbsent()
  @IsDateOnly()
  start?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    example: '2026-03-06',
    description: 'Not before start',
  })
  @MayBeAbsent()
  @IsDateOnly()
  end?: string;

  @ApiPropertyOptional({ example: 6, minimum: 0, maximum: 100_000, description: 'Hours; default 0' })
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
  @ApiProperty({ type: 'integer', example: 301 }) id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;
  @ApiProperty({ type: 'integer', example: 88 }) project_id!: number;
  @ApiProperty({ example: 'Key visual' }) name!: string;
  @ApiProperty({ example: '' }) description!: string;
  @ApiProperty({ enum: TASK_STATUSES, example: TaskStatus.New }) status!: string;
  @ApiProperty({ type: 'integer', example: 12, nullable: true }) assignee_id!: number | null;
  @ApiProperty({ type: String, format: 'date', example: '2026-03-02', nullable: true }) start!: string | null;
  @ApiProperty({ type: String, format: 'date', example: '2026-03-06', nullable: true }) end!: string | null;
  @ApiProperty({ example: 6, description: 'Hours' }) estimated_time!: number;
  @ApiProperty({ example: '2026-11-22 10:15:00', ...TIMESTAMP }) created_at!: string;
  @ApiProperty({ example: '2026-11-22 10:15:00', ...TIMESTAMP }) updated_at!: string;

  static from(task: Task): TaskDto {
    return {
      id: task.id,
      version: task.version,
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

/** docs/spec/interfaces.md "Task attachment from external source" request. */
export class CreateAttachmentDto {
  @ApiProperty({
    example: 'https://drive.google.com/file/d/1dandXB0QZpjeGQq_56wTXKNwaqgsOa9D/view',
    maxLength: 2000,
    description:
      "The file's link in its store (an http(s) URL, as the store's file picker gives it), or the store's " +
      'reference to the file: a Drive file id (google_drive), a file path starting with / (dropbox), an ' +
      'item id like 7ED6275F2340188C!116 (onedrive). Anything else is a 400: the attachment `url` must open the file.',
  })
  @IsString()
  @Length(1, 2000)
  filename!: string;

  @ApiProperty({ example: 'moodboard.pdf', maxLength: 500, description: "The file's name, shown to users" })
  @IsString()
  @Length(1, 500)
  originalname!: string;

  @ApiProperty({ type: 'integer', example: 204800, minimum: 0, description: 'Bytes' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;

  @ApiProperty({ example: true, description: 'Whether the file can be opened now' })
  @IsBoolean()
  available!: boolean;

  @ApiPropertyOptional({
    example: null,
    nullable: true,
    type: String,
    maxLength: 2000,
    description: "The store's session token for the file, stored and answered as given",
  })
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

/** docs/spec/interfaces.md attachment response. */
export class AttachmentDto {
  @ApiProperty({ type: 'integer', example: 5 }) id!: number;

  @ApiProperty({
    type: String,
    format: 'uri',
    example: 'https://drive.google.com/file/d/1dandXB0QZpjeGQq_56wTXKNwaqgsOa9D/view',
    description:
      "Opens the file in its store: the link sent as filename, or the store's web address built from the " +
      'reference sent (google_drive: https://drive.google.com/file/d/{id}/view; dropbox: ' +
      'https://www.dropbox.com/home{folder}?preview={name}; onedrive: https://onedrive.live.com/redir?resid={id}). ' +
      'main-api keeps no copy of the file; the store decides who may see it.',
  })
  url!: string;

  @ApiProperty({ example: 'moodboard.pdf', description: 'originalname as sent' }) name!: string;
  @ApiProperty({ example: '2026-11-22 10:15:00', ...TIMESTAMP }) created_at!: string;
  @ApiProperty({
    enum: ATTACHMENT_SOURCES,
    example: 'google_drive',
    description: 'The source_type of the path',
  })
  source!: AttachmentSource;
  @ApiProperty({ type: 'integer', example: 204800, description: 'Bytes' }) size!: number;
  @ApiProperty({ example: 'pdf', description: "The name's extension, lower case; empty without one" })
  file_type!: string;
  @ApiProperty({
    example: 'application/pdf',
    description: 'From the extension; application/octet-stream if unknown',
  })
  media_type!: string;
  @ApiProperty({ type: 'integer', example: 12, nullable: true, description: 'The user who attached it' })
  user_id!: number | null;
  @ApiProperty({ type: 'integer', example: null, nullable: true }) discussions_id!: number | null;
  @ApiProperty({ type: String, example: null, nullable: true }) session_token!: string | null;

  static from(attachment: TaskAttachment): AttachmentDto {
    const extension = /\.([a-z0-9]{1,10})$/i.exec(attachment.originalName)?.[1]?.toLowerCase() ?? '';
    return {
      id: attachment.id,
      url: attachmentUrl(attachment.source, attachment.filename),
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
