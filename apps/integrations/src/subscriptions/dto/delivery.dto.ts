import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHANGE_FEED_ENTITIES, type ChangeFeedEntity } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';
import type { DeliveryStatus } from '../webhook-delivery.entity';
import { DELIVERY_STATUSES } from './subscription-params.dto';

/** `data` of a webhook body: one change of one platform entity. */
export class WebhookEventDataDto {
  @ApiProperty({ enum: CHANGE_FEED_ENTITIES, example: 'projects' })
  entity!: ChangeFeedEntity;

  @ApiProperty({ example: 17, description: 'Platform id (for working-time: the user id)' })
  id!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'PROJ-1',
    description: "The subscriber's own id of the entity (its metadata.source mapping), or null",
  })
  external_id!: string | null;

  @ApiProperty({ enum: CHANGE_KINDS, example: 'updated' })
  kind!: ChangeKind;

  @ApiProperty({ type: [String], example: ['name'], description: 'Empty for created and deleted' })
  changed_fields!: string[];

  @ApiProperty({ example: '42', description: "The event's cursor in main-api's change feed: orders events" })
  cursor!: string;

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' })
  occurred_at!: string;

  // Optional here: deliveries queued before events named their project are still in the log.
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 12,
    description: 'The project of the change',
  })
  project_id?: number | null;

  @ApiPropertyOptional({
    // An object, or for working-time the user's week (an array), as its route answers it.
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: {} }, { type: 'null' }],
    description: 'For a `payload: snapshot` subscription: the entity when the change was read',
  })
  snapshot?: Record<string, unknown> | unknown[] | null;
}

/** The JSON body POSTed to the subscriber (Standard Webhooks payload shape). */
export class WebhookPayloadDto {
  @ApiProperty({ example: 'projects.updated', description: '<entity>.<kind>' })
  type!: string;

  @ApiProperty({ example: '2026-11-23T10:00:00.000Z', description: 'When the change occurred' })
  timestamp!: string;

  @ApiProperty({ type: WebhookEventDataDto })
  data!: WebhookEventDataDto;
}

export class DeliveryAttemptDto {
  @ApiProperty({ example: 1 })
  attempt!: number;

  @ApiProperty({ example: '2026-11-23T10:00:01.120Z' })
  attempted_at!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-23T10:00:01.180Z',
    description: 'null while it runs',
  })
  finished_at!: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 503, description: "The receiver's HTTP status" })
  status_code!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why there is no 2xx answer: timeout, refused connection, refused target...',
  })
  error!: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 60 })
  duration_ms!: number | null;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid', example: '5d2c8b0a-1f7e-4c1a-8f3d-9b6e4a2c7d10' })
  id!: string;

  @ApiProperty({
    example: 'msg_5d2c8b0a-1f7e-4c1a-8f3d-9b6e4a2c7d10',
    description: 'webhook-id of every attempt',
  })
  webhook_id!: string;

  @ApiProperty({ example: 'projects.updated' })
  type!: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    example: 'delivered',
    description:
      'pending (to be attempted, or being attempted), delivered (a 2xx answer), failed (retries used up)',
  })
  status!: DeliveryStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'While pending: when it is attempted next',
  })
  next_attempt_at!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '2026-11-23T10:00:01.180Z' })
  delivered_at!: string | null;

  @ApiProperty({ type: WebhookPayloadDto, description: 'The body sent, frozen when the change was read' })
  payload!: WebhookPayloadDto;

  @ApiProperty({ type: [DeliveryAttemptDto] })
  attempts!: DeliveryAttemptDto[];

  @ApiProperty({ example: '2026-11-23T10:00:01.100Z' })
  created_at!: string;
}
