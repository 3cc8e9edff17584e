import {
  ownerDataSourceOptions,
  serviceDataSourceOptions,
  type DatabaseEnv,
  type ServiceDatabase,
} from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { ExternalIdGeneration } from '../mappings/external-id-generation.entity';
import { ExternalMapping } from '../mappings/external-mapping.entity';
import { FeedCursor } from '../subscriptions/feed-cursor.entity';
import { WebhookDeliveryAttempt } from '../subscriptions/webhook-delivery-attempt.entity';
import { WebhookDelivery } from '../subscriptions/webhook-delivery.entity';
import { WebhookSubscription } from '../subscriptions/webhook-subscription.entity';
import { WebhookEvent } from '../webhooks/webhook-event.entity';
import { WebhookSource } from '../webhooks/webhook-source.entity';
import { INTEGRATIONS_MIGRATIONS } from './migrations';

/** integrations's own schema, entities and migrations: shared by the app, the migrate command and tests. */
export const INTEGRATIONS_DATABASE: ServiceDatabase = {
  schema: 'integrations',
  applicationName: 'integrations',
  runtimeRole: 'integrations_runtime',
  entities: [
    ExternalMapping,
    ExternalIdGeneration,
    WebhookSource,
    WebhookEvent,
    WebhookSubscription,
    WebhookDelivery,
    WebhookDeliveryAttempt,
    FeedCursor,
  ],
  migrations: INTEGRATIONS_MIGRATIONS,
};

/** The service's own connections, as `integrations_runtime` under row-level security. */
export function integrationsDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return serviceDataSourceOptions(INTEGRATIONS_DATABASE, env);
}

/** The owner's connections: migrations, migration generation, and tests that inspect the tables. */
export function integrationsOwnerDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return ownerDataSourceOptions(INTEGRATIONS_DATABASE, env);
}
