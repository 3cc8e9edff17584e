import { randomBytes } from 'node:crypto';
import { RetentionPruner } from '@platform/database';
import {
  startConsumerTestService,
  type ConsumerTestService,
  TEST_CHANGE_ORIGIN_KEY,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { IntegrationsEnv } from '../src/config/integrations.env';
import { integrationsOwnerDataSourceOptions } from '../src/database/integrations.data-source';
import { integrationsService } from '../src/integrations.service';

describe('integrations retention (e2e)', () => {
  let service: ConsumerTestService<IntegrationsEnv>;
  let db: DataSource;

  beforeAll(async () => {
    service = await startConsumerTestService({
      definition: integrationsService,
      envClass: IntegrationsEnv,
      dataSourceOptions: integrationsOwnerDataSourceOptions,
      env: {
        INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CHANGE_ORIGIN_KEY: TEST_CHANGE_ORIGIN_KEY,
        // The worker would deliver the rows made below; this file is about keeping and removing them.
        DELIVERY_WORKER: 'off',
        WEBHOOK_EVENT_RETENTION_DAYS: '7',
        DELIVERY_LOG_RETENTION_DAYS: '30',
      },
    });
    db = await new DataSource(integrationsOwnerDataSourceOptions(service.env)).initialize();
  });

  afterAll(async () => {
    await db?.destroy();
    await service.close();
  });

  const prune = (table?: string) => service.app.get(RetentionPruner).runOnce(table ? [table] : undefined);

  it('prunes every table of integrations that grows with traffic', async () => {
    const report = await prune();

    expect(Object.keys(report).sort()).toEqual(['webhook_deliveries', 'webhook_events']);
  });

  it('forgets received webhook events after WEBHOOK_EVENT_RETENTION_DAYS and keeps the fresher ones', async () => {
    await db.query(
      `INSERT INTO webhook_events (company_id, source, event_id, payload, status, received_at) VALUES
         (1, 'GITHUB', 'old-applied', '{}', 'applied', now() - interval '8 days'),
         (1, 'GITHUB', 'old-retryable', '{}', 'retryable', now() - interval '8 days'),
         (1, 'GITHUB', 'recent', '{}', 'applied', now() - interval '6 days'),
         (2, 'SLACK', 'in-flight', '{}', 'received', now())`,
    );

    await prune('webhook_events');

    const left = await db.query<{ event_id: string }[]>(
      'SELECT event_id FROM webhook_events ORDER BY event_id',
    );
    expect(left.map(({ event_id }) => event_id)).toEqual(['in-flight', 'recent']);
  });

  it('trims finished deliveries and their attempts after DELIVERY_LOG_RETENTION_DAYS, never pending ones', async () => {
    const [{ id: subscriptionId }] = await db.query<{ id: string }[]>(
      `INSERT INTO webhook_subscriptions
         (company_id, source, url, kinds, signing_secret_sealed, api_key, client_secret_sealed)
       VALUES (1, 'GITHUB', 'https://hooks.example/retention', '{created}', 'sealed', 'key', 'sealed')
       RETURNING id`,
    );
    const delivery = async (cursor: number, status: string, ageDays: number): Promise<string> => {
      const [{ id }] = await db.query<{ id: string }[]>(
        `INSERT INTO webhook_deliveries
           (company_id, subscription_id, event_cursor, entity, kind, payload, status, attempts, updated_at)
         VALUES (1, $1, $2, 'clients', 'created', '{}', $3, 1, now() - make_interval(days => $4))
         RETURNING id`,
        [subscriptionId, cursor, status, ageDays],
      );
      await db.query(
        `INSERT INTO webhook_delivery_attempts (company_id, delivery_id, attempt, finished_at, status_code)
         VALUES (1, $1, 1, now(), 500)`,
        [id],
      );
      return id;
    };
    const oldDelivered = await delivery(1, 'delivered', 31);
    const oldFailed = await delivery(2, 'failed', 31);
    const oldPending = await delivery(3, 'pending', 31);
    const recentDelivered = await delivery(4, 'delivered', 29);

    await prune('webhook_deliveries');

    const left = await db.query<{ id: string }[]>(
      'SELECT id FROM webhook_deliveries WHERE subscription_id = $1',
      [subscriptionId],
    );
    expect(left.map(({ id }) => id).sort()).toEqual([oldPending, recentDelivered].sort());
    const orphans = await db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE delivery_id = ANY($1)',
      [[oldDelivered, oldFailed]],
    );
    expect(orphans[0].n).toBe(0);
  });
});
