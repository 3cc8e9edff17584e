import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SUBSCRIPTION_ENTITIES, type SubscriptionEntity } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';

/** `data` of an outbound webhook: which entity changed, how, and where it sits in the feed. */
export class OutboundWebhookDataDto {
  @ApiProperty({ enum: SUBSCRIPTION_ENTITIES, example: 'projects' }) entity!: SubscriptionEntity;
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { type: 'string', format: 'uuid' }],
    example: 88,
    description: "Platform id: an integer for main-api's kinds, a uuid for the planner's allocations",
  })
  id!: number | string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'EXT-42',
    description: "The subscription's source's id for the entity, or null when it has none",
  })
  external_id!: string | null;
  @ApiProperty({ enum: CHANGE_KINDS, example: 'updated' }) kind!: ChangeKind;
  @ApiProperty({ type: [String], example: ['name', 'end'], description: 'Empty on created and deleted' })
  changed_fields!: string[];
  @ApiProperty({
    pattern: '^(0|[1-9]\\d{0,17})$',
    example: '1042',
    description:
      "Position in its service's change feed (main-api's, or the planner's for allocations): orders that feed's events of one company (decimal string)",
  })
  cursor!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T10:15:00.000Z' }) occurred_at!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 12,
    description:
      "The project the change belongs to: a project's own id, a task's, time entry's, cost's, estimate's or allocation's project; null for other kinds",
  })
  project_id!: number | null;
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 7,
    description: 'allocations only: the user the allocation books',
  })
  user_id?: number | null;
  @ApiPropertyOptional({
    // An object, or for working-time the user's week (an array), as its route answers it.
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: {} }, { type: 'null' }],
    description:
      "Only for a `payload: snapshot` subscription: the entity as its service's route answers it when the change was read; null for a deletion and for kinds without a route by id",
  })
  snapshot?: Record<string, unknown> | unknown[] | null;
}

/** The body of every outbound webhook (Standard Webhooks payload shape), signed as sent. */
export class OutboundWebhookDto {
  @ApiProperty({
    enum: SUBSCRIPTION_ENTITIES.flatMap((entity) => CHANGE_KINDS.map((kind) => `${entity}.${kind}`)),
    example: 'projects.updated',
    description: '`<entity>.<kind>`',
  })
  type!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T10:15:00.000Z', description: 'When it occurred' })
  timestamp!: string;
  @ApiProperty({ type: OutboundWebhookDataDto }) data!: OutboundWebhookDataDto;
}

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', example },
});

/**
 * OpenAPI 3.1 `webhooks`: the request integrations sends to a subscription's url for each change it
 * asked for (decisions, "Outbound webhooks").
 */
export const OUTBOUND_WEBHOOKS = {
  change: {
    post: {
      operationId: 'webhooks_change',
      summary: 'A change to an entity a subscription asked for, POSTed to its url',
      description:
        'Signed as Standard Webhooks: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of ' +
        "`<webhook-id>.<webhook-timestamp>.<body>` keyed with the subscription's signing secret (the " +
        'bytes after `whsec_`, base64-decoded). At least once: the same `webhook-id` may arrive again; ' +
        '`data.cursor` orders events.',
      // The receiver checks the signature; no token is sent.
      security: [],
      parameters: [
        header(
          'webhook-id',
          'The delivery: the same on every attempt and replay',
          'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
        ),
        header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed', '1795000000'),
        header(
          'webhook-signature',
          'v1,<base64 HMAC-SHA256>',
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/OutboundWebhookDto' } } },
      },
      responses: {
        '2XX': {
          description: 'Received. Any other answer, a redirect or a timeout is a failed attempt, retried',
        },
      },
    },
  },
  subscriptionTest: {
    post: {
      operationId: 'webhooks_subscriptionTest',
      summary: 'A test event, sent once when the subscriber asks for it (POST /subscriptions/{id}/test)',
      description:
        'Signed exactly as the change webhooks are, with a `webhook-id` of its own (`msg_test_…`); never ' +
        'retried and not in the delivery log.',
      security: [],
      parameters: [
        header('webhook-id', 'msg_test_ and a random id', 'msg_test_5b0d3c2e-8f0e-4d8e-b4a5-0d1f2e3c4b5a'),
        header('webhook-timestamp', 'Seconds since the epoch when it was signed', '1795000000'),
        header(
          'webhook-signature',
          'v1,<base64 HMAC-SHA256>',
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/SubscriptionTestWebhookDto' } },
        },
      },
      responses: { '2XX': { description: 'Received and verified' } },
    },
  },
};

/** `data` of the test event a subscriber asks for (`POST /subscriptions/{id}/test`). */
export class SubscriptionTestWebhookDataDto {
  @ApiProperty({ format: 'uuid', example: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11' }) subscription_id!: string;
  @ApiProperty({ example: 'A test event: your receiver verified its signature if it answered 2xx' })
  message!: string;
}

/** The test event's body: the Standard Webhooks shape of every webhook, signed the same way. */
export class SubscriptionTestWebhookDto {
  @ApiProperty({ enum: ['subscription.test'], example: 'subscription.test' }) type!: 'subscription.test';
  @ApiProperty({ format: 'date-time', example: '2026-11-27T10:15:00.000Z', description: 'When it was sent' })
  timestamp!: string;
  @ApiProperty({ type: SubscriptionTestWebhookDataDto }) data!: SubscriptionTestWebhookDataDto;
}

/** What sending the test event found. */
export class SubscriptionTestResultDto {
  @ApiProperty({ example: 'msg_test_5b0d…', description: 'The webhook-id the test event was sent with' })
  webhook_id!: string;
  @ApiProperty({ description: 'Whether the receiver answered 2xx' }) delivered!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, example: 204, description: "The receiver's status" })
  status_code!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why there is no status: timeout, refused connection, target refused by the policy',
  })
  error!: string | null;
  @ApiProperty({ type: 'integer', example: 38 }) duration_ms!: number;
}
