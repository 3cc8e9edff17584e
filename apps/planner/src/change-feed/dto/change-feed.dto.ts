import { ApiProperty } from '@nestjs/swagger';
import { PLANNER_FEED_ENTITIES } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeEvent, type ChangeKind } from '../change-event.entity';

export class ChangeEventDto {
  @ApiProperty({
    description: 'Position in the company feed; pass it as `after` to continue',
    example: '1042',
  })
  cursor!: string;

  @ApiProperty({ enum: PLANNER_FEED_ENTITIES, example: 'allocations' })
  entity!: string;

  @ApiProperty({
    format: 'uuid',
    description: "The allocation's id (its primaryKey)",
    example: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11',
  })
  id!: string;

  @ApiProperty({
    enum: CHANGE_KINDS,
    description: 'deleted: a tombstone, the allocation is gone',
    example: 'updated',
  })
  kind!: ChangeKind;

  @ApiProperty({
    description: 'Fields set (created) or changed (updated), as the table names them; empty for deleted',
    type: [String],
    example: ['allocated_hours'],
  })
  changed_fields!: string[];

  @ApiProperty({ type: 'integer', nullable: true, description: "The allocation's project", example: 12 })
  project_id!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The user it books', example: 7 })
  user_id!: number | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-27T10:15:00.000Z' })
  occurred_at!: string;

  static from(event: ChangeEvent): ChangeEventDto {
    return {
      cursor: event.id,
      entity: event.entity,
      id: event.entityId,
      kind: event.kind,
      changed_fields: event.changedFields,
      project_id: event.projectId,
      user_id: event.userId,
      occurred_at: event.occurredAt.toISOString(),
    };
  }
}

export class ChangeFeedPageDto {
  @ApiProperty({ type: [ChangeEventDto] })
  data!: ChangeEventDto[];

  @ApiProperty({
    description: 'Pass as `after` for the next page; the same cursor as `after` when the page is empty',
    example: '1042',
  })
  next_cursor!: string;
}
