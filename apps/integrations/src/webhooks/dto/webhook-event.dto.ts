import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INTEGRATION_ENTITIES, IntegrationEntity, MayBeAbsent } from '@platform/contracts';
import { IsIn, IsObject } from 'class-validator';
import { IsExternalId } from '../../entities/dto/integration-common.dto';

export const WEBHOOK_ACTIONS = ['create', 'update', 'delete'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

/** The body of an incoming webhook: one change of one entity, by its external id. */
export class WebhookEventDto {
  @ApiProperty({ enum: WEBHOOK_ACTIONS, example: 'update' })
  @IsIn(WEBHOOK_ACTIONS, { message: 'action must be one of create, update, delete' })
  action!: WebhookAction;

  @ApiProperty({ enum: IntegrationEntity, example: IntegrationEntity.Projects })
  @IsIn(INTEGRATION_ENTITIES, { message: `entity must be one of ${INTEGRATION_ENTITIES.join(', ')}` })
  entity!: IntegrationEntity;

  @ApiProperty({ example: 'PROJ-1' })
  @IsExternalId('external_id')
  external_id!: string;

  @ApiPropertyOptional({
    example: { name: 'Spring launch' },
    description: 'The fields, as the REST endpoint of that entity and action takes them (no metadata, no id)',
  })
  @MayBeAbsent()
  @IsObject()
  data?: Record<string, unknown>;
}

export class WebhookOutcomeDto {
  @ApiProperty({ example: 'evt_123' })
  event_id!: string;

  @ApiProperty({ enum: ['applied'], example: 'applied' })
  status!: 'applied';

  @ApiProperty({
    example: 17,
    nullable: true,
    type: Number,
    description: 'The platform id of the entity changed',
  })
  platform_id!: number | null;

  @ApiPropertyOptional({
    enum: [true],
    description: 'Present on the answer to a delivery of an event already applied (the first outcome again)',
  })
  duplicate?: true;
}
