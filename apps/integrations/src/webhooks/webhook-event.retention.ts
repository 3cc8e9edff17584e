import type { RetentionPolicy } from '@platform/database';

/**
 * A received event is kept WEBHOOK_EVENT_RETENTION_DAYS after it was last received: that long, a
 * sender's redelivery of the same event id (even freshly signed) gets the first outcome instead of
 * being applied twice. The signature's 5-minute replay window is far shorter, so nothing older can
 * be replayed as is; a redelivery after this long is applied again.
 */
export function webhookEventRetention(retentionDays: number): RetentionPolicy {
  return {
    table: 'webhook_events',
    expired: 'received_at < now() - make_interval(days => $1)',
    parameters: [retentionDays],
    keptFor: `${retentionDays} days (WEBHOOK_EVENT_RETENTION_DAYS)`,
  };
}
