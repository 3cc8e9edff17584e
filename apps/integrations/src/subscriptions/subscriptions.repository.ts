import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { IntegrationSource } from '@platform/contracts';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { WebhookSubscription } from './webhook-subscription.entity';

/** The advisory lock family (hashtext of this name, then the company) of subscription creates. */
const CREATE_LOCK = 'integrations:webhook-subscription-creates';

/** The subscriptions of the caller's company (RequestTenantScope). */
@Injectable()
export class SubscriptionsRepository {
  private readonly subscriptions: TenantRepository<WebhookSubscription>;

  constructor(private readonly scope: RequestTenantScope) {
    this.subscriptions = scope.repository(WebhookSubscription);
  }

  /** Oldest first; only those of `source` when it is given. */
  list(source?: IntegrationSource): Promise<WebhookSubscription[]> {
    return this.subscriptions.find({
      where: source ? { source } : {},
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findById(id: string): Promise<WebhookSubscription | null> {
    return this.subscriptions.findById(id);
  }

  /** Deletes the subscription; its delivery log goes with it (ON DELETE CASCADE). */
  delete(subscription: WebhookSubscription): Promise<void> {
    return this.subscriptions.delete(subscription);
  }

  /**
   * Saves a new subscription in the caller's company unless the company already has `limit`;
   * answers undefined then. A unique violation (same source and url) is thrown as it is. The row's
   * id and company are settled first and handed to `fieldsFor`, so its secrets can be sealed for
   * their row.
   */
  insertWithinLimit(
    fieldsFor: (row: {
      id: string;
      companyId: number;
    }) => Omit<DeepPartial<WebhookSubscription>, 'companyId' | 'id'>,
    limit: number,
  ): Promise<WebhookSubscription | undefined> {
    const id = randomUUID();
    return this.scope.transaction(async (unit) => {
      const companyId = unit.companyId();
      // Two creates of one company at once would both count limit - 1 and both insert (on any
      // replica): the second waits here until the first commits, and its count (a statement of its
      // own, so a snapshot taken after the wait, in READ COMMITTED) includes the first one's row.
      // Transaction-scoped, keyed on the company: other companies' creates never wait for it.
      await unit.sql.select('SELECT pg_advisory_xact_lock(hashtext($1), $2::int)', [CREATE_LOCK, companyId]);
      const [{ count }] = await unit.sql.select<{ count: number }>(
        'SELECT count(*)::int AS count FROM webhook_subscriptions WHERE company_id = $1',
        [companyId],
      );
      if (count >= limit) {
        return undefined;
      }
      return unit.repository(WebhookSubscription).create({ ...fieldsFor({ id, companyId }), id });
    });
  }
}
