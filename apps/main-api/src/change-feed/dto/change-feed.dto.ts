import { ApiProperty } from '@nestjs/swagger';
import { CHANGE_FEED_ENTITIES, INTEGRATION_SOURCES } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeEvent, type ChangeKind } from '../change-event.entity';

export class ChangeEventDto {
  @ApiProperty({
    description: 'Position in the company feed; pass it as `after` to continue',
    example: '1042',
  })
  cursor!: string;

  @ApiProperty({ enum: CHANGE_FEED_ENTITIES, example: 'projects' })
  entity!: string;

  @ApiProperty({ description: "Platform id (for working-time, the user's id)", example: 17 })
  id!: number;

  @ApiProperty({
    enum: CHANGE_KINDS,
    description: 'deleted: a tombstone, the entity is gone',
    example: 'updated',
  })
  kind!: ChangeKind;

  @ApiProperty({
    description: 'Fields set (created) or changed (updated); empty for deleted',
    type: [String],
    example: ['name'],
  })
  changed_fields!: string[];

  @ApiProperty({
    description: 'The integration source the change came in from (X-Change-Origin), or null',
    enum: INTEGRATION_SOURCES,
    nullable: true,
    example: null,
  })
  origin!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "The project the change belongs to: a project's own id, or the project of a task, time entry (hours), project cost or estimate; null for the other entities",
    example: 12,
  })
  project_id!: number | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-23T10:15:00.000Z' })
  occurred_at!: string;

  static from(event: ChangeEvent): ChangeEventDto {
    return {
      cursor: event.id,
      entity: event.entity,
      id: event.entityId,
      kind: event.kind,
      changed_fields: event.changedFields,
      origin: event.origin,
      project_id: event.projectId,
      occurred_at: event.occurredAt.toISOString(),
    };
  }
}

export class ChangeFeedPageDto {
  @ApiProperty({ type: [ChangeEventDto] })
  data!: ChangeEventDto[];

  @ApiProperty({
    description: 'The cursor of the last event returned (or `after` when there was none): the next `after`',
    example: '1042',
  })
  next_cursor!: string;
}
