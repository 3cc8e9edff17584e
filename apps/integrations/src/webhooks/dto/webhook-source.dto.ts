import { ApiProperty } from '@nestjs/swagger';
import { INTEGRATION_SOURCES, IntegrationSource } from '@platform/contracts';
import { IsIn, IsString, Length } from 'class-validator';

export class WebhookSourceParamsDto {
  @ApiProperty({ enum: IntegrationSource })
  @IsIn(INTEGRATION_SOURCES, { message: `source must be one of ${INTEGRATION_SOURCES.join(', ')}` })
  source!: IntegrationSource;
}

/** The API client (of your company, role 1 or 2) whose tokens apply this source's events in main-api. */
export class PutWebhookSourceDto {
  @ApiProperty({ example: 'ak_3f9c…', description: 'api_key of an API client of your company' })
  @IsString()
  @Length(1, 100)
  api_key!: string;

  @ApiProperty({ example: 'cs_…', description: 'Its client secret: kept encrypted, never shown again' })
  @IsString()
  @Length(1, 500)
  client_secret!: string;
}

export class WebhookSourceDto {
  @ApiProperty({ enum: IntegrationSource })
  source!: IntegrationSource;

  @ApiProperty({ example: 'ak_3f9c…' })
  api_key!: string;

  @ApiProperty({ example: '2026-11-23T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ example: '2026-11-23T10:15:00.000Z' })
  updated_at!: string;
}

export class WebhookSourceWithSecretDto extends WebhookSourceDto {
  @ApiProperty({
    example: 'whsec_V2h5IGFyZSB5b3UgcmVhZGluZyB0aGlzPw',
    description:
      'Shown once. The sender signs each delivery per Standard Webhooks: X-Webhook-Signature: v1,<base64 ' +
      'HMAC-SHA256 of "<X-Webhook-Id>.<X-Webhook-Timestamp>.<raw body>", keyed with the base64-decoded part ' +
      'after whsec_> (the earlier sha256=<hex> form is still accepted: see POST /webhooks/{source})',
  })
  signing_secret!: string;
}
