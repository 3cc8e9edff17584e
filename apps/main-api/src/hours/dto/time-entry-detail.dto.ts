import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  API_TIMESTAMP,
  formatTimestamp,
  IsDateOnly,
  IsEntityIdList,
  ListQueryDto,
  MayBeAbsent,
  MayBeAbsentOrNull,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { TIME_ENTRY_STATUSES, type TimeEntry, type TimeEntryStatus } from '../time-entry.entity';
import { CreateTimeEntryDto, TimeEntryDto, UpdateTimeEntryDto } from './time-entry.dto';

/** A tracker's name for itself: what `external_id` is unique within. */
export const SOURCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$/;
/** Any character but the controls: printable ASCII and everything past it. */
const EXTERNAL_ID_PATTERN = /^[ -~\u00a0-\uffff]{1,255}$/;

const SOURCE_MESSAGE = 'source must be 1-50 letters, digits, _ . or -, starting with a letter or digit';

/** `note`: free text, null clears it. */
const NoteField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, example: 'Storyboard review' }),
    MayBeAbsentOrNull(),
    IsString(),
    MaxLength(2000),
  );

/** `allocation_id`: the planner's booking, by its uuid. */
const AllocationIdField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      example: '0b8f4c1e-6a61-4f0e-9d7c-3f2b2f7c9a10',
      description:
        'The planner booking (v2 allocation id) the hours fulfil; the planner owns it, so it is not looked up',
    }),
    MayBeAbsentOrNull(),
    IsUUID(),
  );

/** `source` and `external_id`: the tracker's key of the entry, both or neither. */
const SourceField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      example: 'harvest',
      pattern: SOURCE_PATTERN.source,
      description:
        'The system the entry comes from; with external_id, unique in your company (both or neither)',
    }),
    MayBeAbsentOrNull(),
    Matches(SOURCE_PATTERN, { message: SOURCE_MESSAGE }),
  );

const ExternalIdField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      example: 'TE-48213',
      maxLength: 255,
      description: "The entry's id in `source` (both or neither)",
    }),
    MayBeAbsentOrNull(),
    Matches(EXTERNAL_ID_PATTERN, {
      message: 'external_id must be 1-255 characters without control characters',
    }),
  );

/** `POST /v1/time-entries`: the interface's fields and the billing ones (issue 40). */
export class CreateTimeEntryDetailDto extends CreateTimeEntryDto {
  @NoteField()
  note?: string | null;

  @ApiPropertyOptional({
    example: true,
    description: "Whether the hours bill to the client; default the project's `billable`",
  })
  @MayBeAbsent()
  @IsBoolean()
  billable?: boolean;

  @AllocationIdField()
  allocation_id?: string | null;

  @SourceField()
  source?: string | null;

  @ExternalIdField()
  external_id?: string | null;
}

/** `PUT /v1/time-entries/{id}`: only the fields sent change; null clears a nullable one. */
export class UpdateTimeEntryDetailDto extends UpdateTimeEntryDto {
  @NoteField()
  note?: string | null;

  @ApiPropertyOptional({ example: false, description: 'Whether the hours bill to the client' })
  @MayBeAbsent()
  @IsBoolean()
  billable?: boolean;

  @AllocationIdField()
  allocation_id?: string | null;

  @SourceField()
  source?: string | null;

  @ExternalIdField()
  external_id?: string | null;
}

/**
 * One entry of `POST /v1/hours/batch` (and `POST /v1/time-entries/upsert`): with `source` and
 * `external_id`, the entry of that key is updated (or created); without, the one entry of the same
 * person, project, task and day is.
 */
export class UpsertTimeEntryDto extends CreateTimeEntryDetailDto {}

export class HoursBatchDto {
  @ApiProperty({
    type: [UpsertTimeEntryDto],
    minItems: 1,
    maxItems: 500,
    description: 'Entries to upsert, in order (at most 500)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => UpsertTimeEntryDto)
  entries!: UpsertTimeEntryDto[];

  @ApiPropertyOptional({
    default: true,
    description: 'true: all or nothing (409 with every result when one fails); false: each on its own (207)',
  })
  @MayBeAbsent()
  @IsBoolean()
  atomic?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Run and answer everything, then save nothing' })
  @MayBeAbsent()
  @IsBoolean()
  dry_run?: boolean;
}

/** `GET /v1/time-entries`: the list parameters, and the entries of some people, projects and days. */
export class TimeEntriesListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ example: '2026-11-01', description: 'Entries on or after this day' })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Entries on or before this day' })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;

  @ApiPropertyOptional({ example: '12,14', description: 'Comma-separated user ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({ example: '88', description: 'Comma-separated project ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  project_ids?: string;

  @ApiPropertyOptional({ enum: TIME_ENTRY_STATUSES, description: 'Only entries with this status' })
  @MayBeAbsent()
  @IsIn(TIME_ENTRY_STATUSES)
  status?: TimeEntryStatus;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Only billable (or non-billable) entries' })
  @MayBeAbsent()
  @IsIn(['true', 'false'])
  billable?: 'true' | 'false';

  @ApiPropertyOptional({ example: 'harvest', description: 'Only entries imported from this source' })
  @MayBeAbsent()
  @Matches(SOURCE_PATTERN, { message: SOURCE_MESSAGE })
  source?: string;
}

/** A time entry with everything it carries (`/v1/time-entries`); `/v1/hours` shows the interface's fields. */
export class TimeEntryDetailDto extends TimeEntryDto {
  @ApiProperty({ type: String, nullable: true, example: 'Storyboard review' }) note!: string | null;
  @ApiProperty({ example: true }) billable!: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null })
  allocation_id!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'harvest' }) source!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'TE-48213' }) external_id!: string | null;

  @ApiProperty({
    enum: TIME_ENTRY_STATUSES,
    example: 'draft',
    description:
      'draft → submitted (the week) → approved or rejected. A submitted or approved entry whose hours, day, ' +
      'person, project, task, position or billable flag change is draft again. Only approved time is actual in forecasts',
  })
  status!: TimeEntryStatus;

  @ApiProperty({ ...API_TIMESTAMP, type: String, nullable: true, example: null, description: 'UTC' })
  submitted_at!: string | null;

  @ApiProperty({ type: Number, nullable: true, example: null, description: 'Who approved or rejected it' })
  reviewed_by_user_id!: number | null;

  @ApiProperty({ ...API_TIMESTAMP, type: String, nullable: true, example: null, description: 'UTC' })
  reviewed_at!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the week was rejected' })
  review_note!: string | null;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00', description: 'UTC' })
  updated_at!: string;

  static override from(entry: TimeEntry): TimeEntryDetailDto {
    return {
      ...TimeEntryDto.from(entry),
      note: entry.note,
      billable: entry.billable,
      allocation_id: entry.allocationId,
      source: entry.source,
      external_id: entry.externalId,
      status: entry.status,
      submitted_at: entry.submittedAt ? formatTimestamp(entry.submittedAt) : null,
      reviewed_by_user_id: entry.reviewedByUserId,
      reviewed_at: entry.reviewedAt ? formatTimestamp(entry.reviewedAt) : null,
      review_note: entry.reviewNote,
      updated_at: formatTimestamp(entry.updatedAt),
    };
  }
}
