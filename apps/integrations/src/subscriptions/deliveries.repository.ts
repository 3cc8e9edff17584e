import { Injectable } from '@nestjs/common';
import type { ListAnswer } from '@platform/contracts';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import { In, Raw } from 'typeorm';
import type { DeliveriesQueryDto } from './dto/subscription-params.dto';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

/** The delivery log of the caller's company's subscriptions (RequestTenantScope). */
@Injectable()
export class DeliveriesRepository {
  private readonly deliveries: TenantRepository<WebhookDelivery>;
  private readonly attempts: TenantRepository<WebhookDeliveryAttempt>;

  constructor(scope: RequestTenantScope) {
    this.deliveries = scope.repository(WebhookDelivery);
    this.attempts = scope.repository(WebhookDeliveryAttempt);
  }

  /** A page of a subscription's deliveries, newest first, only those in `query.status` when given. */
  page(subscriptionId: string, query: DeliveriesQueryDto): Promise<ListAnswer<WebhookDelivery>> {
    const rows = this.deliveries
      .queryBuilder('delivery')
      .andWhere('delivery.subscription_id = :subscriptionId', { subscriptionId })
      .orderBy('delivery.created_at', 'DESC')
      .addOrderBy('delivery.event_cursor', 'DESC');
    if (query.status) {
      rows.andWhere('delivery.status = :status', { status: query.status });
    }
    return this.deliveries.paginate(rows, 'delivery', query, {}, (delivery) => delivery);
  }

  async findOfSubscription(subscriptionId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const [delivery] = await this.deliveries.find({ where: { id: deliveryId, subscriptionId } });
    return delivery;
  }

  async findById(deliveryId: string): Promise<WebhookDelivery | undefined> {
    const [delivery] = await this.deliveries.find({ where: { id: deliveryId } });
    return delivery;
  }

  /**
   * Queues a delivery to be sent now with a fresh retry schedule, unless an attempt of it is
   * running (that attempt's outcome would then overwrite the replay's): answers whether it did.
   */
  async requeue(subscriptionId: string, deliveryId: string): Promise<boolean> {
    const requeued = await this.deliveries.updateWhere(
      {
        subscriptionId,
        id: Raw(
          (column) =>
            `${column} = :deliveryId AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts running
               WHERE running.delivery_id = ${column} AND running.finished_at IS NULL)`,
          { deliveryId },
        ),
      },
      { status: 'pending', failedAttempts: 0, nextAttemptAt: () => 'now()', deliveredAt: null },
    );
    return requeued > 0;
  }

  /** The attempts of these deliveries, each delivery's in order. */
  async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookDeliveryAttempt[]>> {
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
