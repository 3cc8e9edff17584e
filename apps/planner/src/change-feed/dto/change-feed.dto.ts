import { ApiProperty } from '@nestjs/swagger';
import { PLANNER_FEED_ENTITIES } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeEvent, type ChangeKind } from '../change-event.entity';

/** The day an `availability.over_allocated` event is about. */
export class OverAllocatedEventDataDto {
  @ApiProperty({ type: 'integer', example: 7 }) user_id!: number;
  @ApiProperty({ format: 'date', example: '2027-03-02' }) date!: string;
  @ApiProperty({ description: 'Hours the person can work that day', example: 8 }) capacity!: number;
  @ApiProperty({ description: 'Hours the day is booked for, counted as the policy counts', example: 10 })
  booked!: number;
}

/** The feed's entities: the planner's own, and `availability` (its over_allocated warnings). */
export const FEED_EVENT_ENTITIES = [...PLANNER_FEED_ENTITIES, 'availability'];

export class ChangeEventDto {
  @ApiProperty({
    description: 'Position in the company feed; pass it as `after` to continue',
    example: '1042',
  })
  cursor!: string;

  @ApiProperty({
    enum: FEED_EVENT_ENTITIES,
    description: 'availability: only with kind over_allocated',
    example: 'allocations',
  })
  entity!: string;

  @ApiProperty({
    format: 'uuid',
    description:
      "The allocation's id (its primaryKey) or the placeholder's; for availability.over_allocated, the allocation whose write put the day over",
    example: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11',
  })
  id!: string;

  @ApiProperty({
    enum: CHANGE_KINDS,
    description:
      'deleted: a tombstone, the allocation (placeholder) is gone; over_allocated (entity availability): a write under the warn ' +
      'capacity policy put a day of the person over capacity, `data` says which',
    example: 'updated',
  })
  kind!: ChangeKind;

  @ApiProperty({
    description: 'Fields set (created) or changed (updated), as the table names them; empty for deleted',
    type: [String],
    example: ['allocated_hours'],
  })
  changed_fields!: string[];

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The allocation's project (the placeholder's, if it has one)",
    example: 12,
  })
  project_id!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The user the allocation books; null for a placeholder's allocation, and for placeholders",
    example: 7,
  })
  user_id!: number | null;

  @ApiProperty({
    type: OverAllocatedEventDataDto,
    nullable: true,
    description: 'over_allocated only: the day over capacity; null for the other kinds',
  })
  data!: OverAllocatedEventDataDto | null;

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
      data: event.data,
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
