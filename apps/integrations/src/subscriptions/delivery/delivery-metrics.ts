import { Injectable } from '@nestjs/common';
import { TenantScopes, type TenantScope } from '@platform/database';
import { MetricsRegistry } from '@platform/runtime';
import { Counter, Gauge } from 'prom-client';

/** How an attempt ended, as DeliveryAttempts records it. */
export type AttemptOutcome = 'delivered' | 'failed' | 'interrupted';

const OUTCOMES: readonly AttemptOutcome[] = ['delivered', 'failed', 'interrupted'];

interface Backlog {
  pending: number;
  oldest_age_seconds: number;
}

// Over every company (the `delivery` purpose may read all deliveries); the partial index of pending
// deliveries keeps it to the backlog's own rows.
const BACKLOG_SQL = `
  SELECT count(*)::int AS pending,
         COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
    FROM webhook_deliveries
   WHERE status = 'pending'`;

/**
 * The outbound webhooks in the service's Prometheus registry. The backlog is read from the database
 * when scraped (one statement for both gauges), so every replica reports the same, shared figure:
 * aggregate it with max(), not sum(). Attempts are counted by the replica that made them.
 */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly scope: TenantScope;
  private reading?: Promise<Backlog | undefined>;

  constructor(metrics: MetricsRegistry, scopes: TenantScopes) {
    this.scope = scopes.acrossCompanies('delivery');
    this.attempts = new Counter({
      name: 'delivery_attempts_total',
      help: 'Webhook delivery attempts finished by this replica, by outcome',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    // Every outcome has a series from the start, so rate() sees its first attempt.
    OUTCOMES.forEach((outcome) => this.attempts.inc({ outcome }, 0));
    const backlog = () => this.readBacklog();
    new Gauge({
      name: 'delivery_backlog',
      help: 'Webhook deliveries pending (due now or waiting for a retry), over all companies',
      registers: [metrics.registry],
      async collect() {
        // NaN when the database cannot say: "unknown", rather than a reassuring 0.
        this.set((await backlog())?.pending ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'delivery_oldest_pending_age_seconds',
      help: 'Age of the oldest pending webhook delivery (since it was queued), 0 when none is pending',
      registers: [metrics.registry],
      async collect() {
        this.set((await backlog())?.oldest_age_seconds ?? Number.NaN);
      },
    });
  }

  attemptFinished(outcome: AttemptOutcome): void {
    this.attempts.inc({ outcome });
  }

  /** One statement per scrape, shared by the two gauges (prom-client collects them concurrently). */
  private readBacklog(): Promise<Backlog | undefined> {
    this.reading ??= this.scope.sql
      .select<Backlog>(BACKLOG_SQL)
      .then(([row]) => row)
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}
