import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { INTEGRATION_SOURCES, IntegrationSource, ListQueryDto, MayBeAbsent } from '@platform/contracts';
import { IsIn, IsUUID } from 'class-validator';
import type { DeliveryStatus } from '../webhook-delivery.entity';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

export class SubscriptionParamsDto {
  @ApiProperty({ format: 'uuid', example: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11' })
  @IsUUID('all', { message: 'id must be a subscription id (a UUID)' })
  id!: string;
}

export class DeliveryParamsDto extends SubscriptionParamsDto {
  @ApiProperty({ format: 'uuid', example: '5d2c8b0a-1f7e-4c1a-8f3d-9b6e4a2c7d10' })
  @IsUUID('all', { message: 'deliveryId must be a delivery id (a UUID)' })
  deliveryId!: string;
}

export class SubscriptionsQueryDto {
  @ApiPropertyOptional({ enum: IntegrationSource, description: 'Only the subscriptions of this source' })
  @MayBeAbsent()
  @IsIn(INTEGRATION_SOURCES, { message: `source must be one of ${INTEGRATION_SOURCES.join(', ')}` })
  source?: IntegrationSource;
}

/** `GET /subscriptions/{id}/deliveries`: a page of the delivery log, newest first. */
export class DeliveriesQueryDto extends PickType(ListQueryDto, ['page', 'perPage'] as const) {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this state' })
  @MayBeAbsent()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
}
