import { Injectable } from '@nestjs/common';
import { type Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { In, Raw } from 'typeorm';
import { webhookIdOf } from './delivery/webhook-signature';
import type { DeliveryDto, WebhookPayloadDto } from './dto/delivery.dto';
import type { DeliveriesQueryDto } from './dto/subscription-params.dto';
import {
  DeliveryInProgressError,
  DeliveryNotFoundError,
  SubscriptionDisabledError,
} from './subscriptions.errors';
import { SubscriptionsService } from './subscriptions.service';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

/** The delivery log of a subscription, and replays. */
@Injectable()
export class DeliveriesService {
  private readonly deliveries: TenantRepository<WebhookDelivery>;
  private readonly attempts: TenantRepository<WebhookDeliveryAttempt>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly subscriptions: SubscriptionsService,
  ) {
    this.deliveries = repositories.for(WebhookDelivery);
    this.attempts = repositories.for(WebhookDeliveryAttempt);
  }

  /** Newest first, each with its attempts. */
  async list(
    subscriptionId: string,
    query: DeliveriesQueryDto,
  ): Promise<Paginated<DeliveryDto> | DeliveryDto[]> {
    await this.subscriptions.find(subscriptionId);
    const rows = this.deliveries
      .queryBuilder('delivery')
      .andWhere('delivery.subscription_id = :subscriptionId', { subscriptionId })
      .orderBy('delivery.created_at', 'DESC')
      .addOrderBy('delivery.event_cursor', 'DESC');
    if (query.status) {
      rows.andWhere('delivery.status = :status', { status: query.status });
    }
    const page = await this.deliveries.paginate(rows, 'delivery', query, {}, (delivery) => delivery);
    const deliveries = Array.isArray(page) ? page : page.data;
    const attempts = await this.attemptsOf(deliveries.map((delivery) => delivery.id));
    const dtos = deliveries.map((delivery) => toDeliveryDto(delivery, attempts.get(delivery.id) ?? []));
    return Array.isArray(page) ? dtos : { ...page, data: dtos };
  }

  /**
   * Sends a delivery again, now, with the same webhook-id (the receiver deduplicates), and a fresh
   * retry schedule; whatever its state, unless an attempt is running or the subscription is disabled.
   */
  async replay(subscriptionId: string, deliveryId: string): Promise<DeliveryDto> {
    const subscription = await this.subscriptions.find(subscriptionId);
    const [delivery] = await this.deliveries.find({ where: { id: deliveryId, subscriptionId } });
    if (!delivery) {
      throw new DeliveryNotFoundError(deliveryId);
    }
    if (subscription.status === 'disabled') {
      throw new SubscriptionDisabledError(subscriptionId);
    }
    const requeued = await this.deliveries.updateWhere(
      {
        subscriptionId,
        // Not while an attempt runs: that attempt's outcome would then overwrite the replay's.
        id: Raw(
          (column) =>
            `${column} = :deliveryId AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts running
               WHERE running.delivery_id = ${column} AND running.finished_at IS NULL)`,
          { deliveryId },
        ),
      },
      { status: 'pending', failedAttempts: 0, nextAttemptAt: () => 'now()', deliveredAt: null },
    );
    if (requeued === 0) {
      throw new DeliveryInProgressError(deliveryId);
    }
    const [replayed] = await this.deliveries.find({ where: { id: deliveryId } });
    return toDeliveryDto(replayed, (await this.attemptsOf([deliveryId])).get(deliveryId) ?? []);
  }

  private async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookDeliveryAttempt[]>> {
    const byDelivery = new Map<string, WebhookDeliveryAttempt[]>();
    if (deliveryIds.length === 0) {
      return byDelivery;
    }
    const attempts = await this.attempts.find({
      where: { deliveryId: In(deliveryIds) },
      order: { attempt: 'ASC' },
    });
    for (const attempt of attempts) {
      byDelivery.set(attempt.deliveryId, [...(byDelivery.get(attempt.deliveryId) ?? []), attempt]);
    }
    return byDelivery;
  }
}

function toDeliveryDto(delivery: WebhookDelivery, attempts: WebhookDeliveryAttempt[]): DeliveryDto {
  const payload = delivery.payload as unknown as WebhookPayloadDto;
  return {
    id: delivery.id,
    webhook_id: webhookIdOf(delivery.id),
    type: payload.type,
    status: delivery.status,
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
    payload,
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      attempted_at: attempt.startedAt.toISOString(),
      finished_at: attempt.finishedAt?.toISOString() ?? null,
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
    })),
    created_at: delivery.createdAt.toISOString(),
  };
}
