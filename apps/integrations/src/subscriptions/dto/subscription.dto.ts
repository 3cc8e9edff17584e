import { ApiProperty } from '@nestjs/swagger';
import { SUBSCRIPTION_ENTITIES, IntegrationSource, type SubscriptionEntity } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';
import {
  SUBSCRIPTION_PAYLOADS,
  type SubscriptionPayload,
  type SubscriptionStatus,
} from '../webhook-subscription.entity';

export class SubscriptionDto {
  @ApiProperty({ format: 'uuid', example: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11' })
  id!: string;

  @ApiProperty({
    enum: IntegrationSource,
    example: IntegrationSource.Hubspot,
    description:
      'metadata.source of the subscriber: changes made through this service by it are not sent to it',
  })
  source!: IntegrationSource;

  @ApiProperty({ example: 'https://hooks.example.com/agency-platform' })
  url!: string;

  @ApiProperty({
    enum: SUBSCRIPTION_ENTITIES,
    isArray: true,
    example: [],
    description: 'Empty: all entities',
  })
  entities!: SubscriptionEntity[];

  @ApiProperty({ enum: CHANGE_KINDS, isArray: true, example: ['created', 'updated', 'deleted'] })
  kinds!: ChangeKind[];

  @ApiProperty({ type: [Number], example: [], description: 'Empty: the changes of every entity' })
  project_ids!: number[];

  @ApiProperty({ enum: SUBSCRIPTION_PAYLOADS, example: 'thin' })
  payload!: SubscriptionPayload;

  @ApiProperty({ example: 'ak_3f9c…', description: 'The API client the change feed is read with' })
  api_key!: string;

  @ApiProperty({
    enum: ['active', 'disabled'],
    example: 'active',
    description:
      'disabled: its deliveries kept failing for SUBSCRIPTION_DISABLE_AFTER_MS; nothing is sent any more',
  })
  status!: SubscriptionStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Since when every delivery attempt has failed (ISO 8601); null after a success',
  })
  failing_since!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  disabled_at!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why it was disabled, e.g. "deliveries failed continuously since ... (last: HTTP 503)"',
  })
  disabled_reason!: string | null;

  @ApiProperty({
    example: '2026-11-23T10:15:00.000Z',
    description: 'It receives the changes that occur from this moment on',
  })
  created_at!: string;

  @ApiProperty({ example: '2026-11-23T10:15:00.000Z' })
  updated_at!: string;
}

export class SubscriptionWithSecretDto extends SubscriptionDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1234567890A=',
    description:
      'Shown once. Each delivery carries webhook-id (msg_<delivery id>, the same on every retry), ' +
      'webhook-timestamp (Unix seconds of the attempt) and webhook-signature: v1,<base64 HMAC-SHA256 over ' +
      '"<webhook-id>.<webhook-timestamp>.<raw body>", keyed with the base64-decoded part after whsec_> ' +
      '(Standard Webhooks).',
  })
  signing_secret!: string;
}
