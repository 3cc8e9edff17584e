import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { OutboundWebhookDataDto } from './outbound-webhook.dto';
import type { DeliveryStatus } from '../webhook-delivery.entity';
import { DELIVERY_STATUSES } from './subscription-params.dto';

/**
 * `data` of a webhook body as the delivery log shows it: the webhook's own, except that `project_id`
 * may be absent (deliveries queued before events named their project are still in the log).
 */
export class WebhookEventDataDto extends OmitType(OutboundWebhookDataDto, ['project_id'] as const) {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 12,
    description: 'The project of the change',
  })
  project_id?: number | null;
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
