import type { RetentionPolicy } from '@platform/database';

export const DELIVERY_LOG = 'webhook_deliveries';

/**
 * The delivery log keeps finished deliveries (delivered or failed) and their attempts (removed with
 * them by the foreign key) for DELIVERY_LOG_RETENTION_DAYS after their last change; pending ones are
 * never removed, however old. Pruned by the service's RetentionPruner with the other tables.
 */
export function deliveryLogRetention(retentionDays: number): RetentionPolicy {
  return {
    table: DELIVERY_LOG,
    // `<> 'pending'` rather than a list of the finished states: the partial index says the same.
    expired: `status <> 'pending' AND updated_at < now() - make_interval(days => $1)`,
    parameters: [retentionDays],
    keptFor: `${retentionDays} days after a delivery finished (DELIVERY_LOG_RETENTION_DAYS), pending ones for ever`,
  };
}
