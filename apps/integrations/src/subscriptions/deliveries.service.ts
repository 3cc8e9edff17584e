import { Injectable } from '@nestjs/common';
import { type ListAnswer } from '@platform/contracts';
import { DeliveriesRepository } from './deliveries.repository';
import { webhookIdOf } from './delivery/webhook-signature';
import type { DeliveryDto, WebhookPayloadDto } from './dto/delivery.dto';
import type { DeliveriesQueryDto } from './dto/subscription-params.dto';
import {
  DeliveryInProgressError,
  DeliveryNotFoundError,
  SubscriptionDisabledError,
} from './subscriptions.errors';
import { SubscriptionsService } from './subscriptions.service';
import type { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity';
import type { WebhookDelivery } from './webhook-delivery.entity';

/** The delivery log of a subscription, and replays. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  /** Newest first, each with its attempts. */
  async list(subscriptionId: string, query: DeliveriesQueryDto): Promise<ListAnswer<DeliveryDto>> {
    await this.subscriptions.find(subscriptionId);
    const page = await this.deliveries.page(subscriptionId, query);
    const deliveries = Array.isArray(page) ? page : page.data;
    const attempts = await this.deliveries.attemptsOf(deliveries.map((delivery) => delivery.id));
    const dtos = deliveries.map((delivery) => toDeliveryDto(delivery, attempts.get(delivery.id) ?? []));
    return Array.isArray(page) ? dtos : { ...page, data: dtos };
  }

  /**
   * Sends a delivery again, now, with the same webhook-id (the receiver deduplicates), and a fresh
   * retry schedule; whatever its state, unless an attempt is running or the subscription is disabled.
   */
  async replay(subscriptionId: string, deliveryId: string): Promise<DeliveryDto> {
    const subscription = await this.subscriptions.find(subscriptionId);
    const delivery = await this.deliveries.findOfSubscription(subscriptionId, deliveryId);
    if (!delivery) {
      throw new DeliveryNotFoundError(deliveryId);
    }
    if (subscription.status === 'disabled') {
      throw new SubscriptionDisabledError(subscriptionId);
    }
    if (!(await this.deliveries.requeue(subscriptionId, deliveryId))) {
      throw new DeliveryInProgressError(deliveryId);
    }
    const replayed = await this.deliveries.findById(deliveryId);
    if (!replayed) {
      // Deleted with its subscription in between.
      throw new DeliveryNotFoundError(deliveryId);
    }
    const attempts = await this.deliveries.attemptsOf([deliveryId]);
    return toDeliveryDto(replayed, attempts.get(deliveryId) ?? []);
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
