import type { RetentionSettings } from '@platform/database';
import type { IntegrationsEnv } from '../config/integrations.env';
import { deliveryLogRetention } from '../subscriptions/delivery/delivery-log.retention';
import { webhookEventRetention } from '../webhooks/webhook-event.retention';

/**
 * Every integrations table that grows with traffic, and how long it keeps its rows; each policy sits
 * beside the feature whose rule it is.
 */
export function integrationsRetention(env: IntegrationsEnv): RetentionSettings {
  return {
    intervalSeconds: env.RETENTION_INTERVAL_SECONDS,
    policies: [
      webhookEventRetention(env.WEBHOOK_EVENT_RETENTION_DAYS),
      deliveryLogRetention(env.DELIVERY_LOG_RETENTION_DAYS),
    ],
  };
}
