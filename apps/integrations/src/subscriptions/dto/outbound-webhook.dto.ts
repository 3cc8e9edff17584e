import { ApiProperty } from '@nestjs/swagger';
import { CHANGE_FEED_ENTITIES, type ChangeFeedEntity } from '@platform/contracts';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';

/** `data` of an outbound webhook: which entity changed, how, and where it sits in the feed. */
export class OutboundWebhookDataDto {
  @ApiProperty({ enum: CHANGE_FEED_ENTITIES, example: 'projects' }) entity!: ChangeFeedEntity;
  @ApiProperty({ type: 'integer', example: 88, description: 'Platform id' }) id!: number;
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
    description: 'Position in the change feed: orders events of one company (decimal string)',
  })
  cursor!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-24T10:15:00.000Z' }) occurred_at!: string;
}

/** The body of every outbound webhook (Standard Webhooks payload shape), signed as sent. */
export class OutboundWebhookDto {
  @ApiProperty({
    enum: CHANGE_FEED_ENTITIES.flatMap((entity) => CHANGE_KINDS.map((kind) => `${entity}.${kind}`)),
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
};
