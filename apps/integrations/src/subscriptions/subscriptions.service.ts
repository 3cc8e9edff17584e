import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ChangeFeedEntity, IntegrationSource } from '@platform/contracts';
import { constraintViolationOf, PG_UNIQUE_VIOLATION } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../config/integrations.env';
import { ApiClientVerifier } from '../credentials/api-client-verifier';
import { SecretBox } from '../credentials/secret-box';
import { CHANGE_KINDS, type ChangeKind } from './change-kind';
import { TargetPolicy, TargetRefusedError } from './delivery/target-policy';
import { sendSignedWebhook } from './delivery/webhook-sender';
import { newSigningSecret } from './delivery/webhook-signature';
import type { SubscriptionTestResultDto } from './dto/outbound-webhook.dto';
import type { CreateSubscriptionDto } from './dto/create-subscription.dto';
import type { SubscriptionDto, SubscriptionWithSecretDto } from './dto/subscription.dto';
import { subscriptionSecretPlace } from './subscription-secrets';
import { SubscriptionsRepository } from './subscriptions.repository';
import {
  DuplicateSubscriptionError,
  SubscriptionLimitError,
  SubscriptionNotFoundError,
} from './subscriptions.errors';
import type { WebhookSubscription } from './webhook-subscription.entity';

/**
 * Subscriptions of external systems to the platform's changes (issue 10): a C-Level user names the
 * target URL (checked against the SSRF rules), what to send and the API client that reads main-api's
 * change feed; the signing secret is generated here and shown once. A company has at most
 * SUBSCRIPTION_MAX_PER_COMPANY subscriptions: each is a receiver the delivery worker calls for it.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly apiClients: ApiClientVerifier,
    private readonly policy: TargetPolicy,
    private readonly box: SecretBox,
    @Inject(INTEGRATIONS_ENV) private readonly env: IntegrationsEnv,
  ) {}

  async create(body: CreateSubscriptionDto): Promise<SubscriptionWithSecretDto> {
    // The credentials first: a caller whose API client main-api refuses never has a name looked up
    // by the service's resolver, which sees internal names (issue 33).
    await this.apiClients.verify(body, 'read the change feed');
    const url = await this.checkedUrl(body.url);
    const signingSecret = newSigningSecret();
    const limit = this.env.SUBSCRIPTION_MAX_PER_COMPANY;
    let created: WebhookSubscription | undefined;
    try {
      created = await this.subscriptions.insertWithinLimit(
        (row) => ({
          source: body.metadata.source,
          url,
          entities: body.entities ?? [],
          kinds: body.kinds ?? [...CHANGE_KINDS],
          projectIds: body.project_ids ?? [],
          payload: body.payload ?? 'thin',
          apiKey: body.api_key,
          signingSecretSealed: this.box.seal(
            signingSecret,
            subscriptionSecretPlace(row, 'signing_secret_sealed'),
          ),
          clientSecretSealed: this.box.seal(
            body.client_secret,
            subscriptionSecretPlace(row, 'client_secret_sealed'),
          ),
        }),
        limit,
      );
    } catch (error) {
      const violation = constraintViolationOf(error);
      if (violation?.code === PG_UNIQUE_VIOLATION && violation.constraint === 'webhook_subscriptions_key') {
        throw new DuplicateSubscriptionError(body.metadata.source, url);
      }
      throw error;
    }
    if (!created) {
      throw new SubscriptionLimitError(limit);
    }
    // Read back: the database sets the timestamps and the status.
    return { ...toSubscriptionDto(await this.find(created.id)), signing_secret: signingSecret };
  }

  async list(source?: IntegrationSource): Promise<SubscriptionDto[]> {
    return (await this.subscriptions.list(source)).map(toSubscriptionDto);
  }

  async get(id: string): Promise<SubscriptionDto> {
    return toSubscriptionDto(await this.find(id));
  }

  /**
   * Sends the subscription one signed test event now, through the same target policy and signing as
   * its deliveries, and answers what the receiver did. Not queued, not retried, not logged: a test
   * that fails says why right away.
   */
  async sendTest(id: string): Promise<SubscriptionTestResultDto> {
    const subscription = await this.find(id);
    const webhookId = `msg_test_${randomUUID()}`;
    const body = JSON.stringify({
      type: 'subscription.test',
      timestamp: new Date().toISOString(),
      data: {
        subscription_id: subscription.id,
        message: 'A test event: your receiver verified its signature if it answered 2xx',
      },
    });
    const started = performance.now();
    const answer = await sendSignedWebhook(this.policy, {
      url: subscription.url,
      signingSecret: this.box.open(
        subscription.signingSecretSealed,
        subscriptionSecretPlace(subscription, 'signing_secret_sealed'),
      ),
      webhookId,
      body,
      timeoutMs: this.env.DELIVERY_TIMEOUT_MS,
      connectTimeoutMs: this.env.DELIVERY_CONNECT_TIMEOUT_MS,
    });
    const statusCode = 'statusCode' in answer ? answer.statusCode : null;
    return {
      webhook_id: webhookId,
      delivered: statusCode !== null && statusCode >= 200 && statusCode < 300,
      status_code: statusCode,
      error: 'error' in answer ? answer.error : null,
      duration_ms: Math.round(performance.now() - started),
    };
  }

  /** Removes the subscription with its delivery log; nothing more is sent to it. */
  async remove(id: string): Promise<SubscriptionDto> {
    const subscription = await this.find(id);
    await this.subscriptions.delete(subscription);
    return toSubscriptionDto(subscription);
  }

  /** The caller's subscription, or 404 (another company's id is as unknown as a missing one). */
  async find(id: string): Promise<WebhookSubscription> {
    const subscription = await this.subscriptions.findById(id);
    if (!subscription) {
      throw new SubscriptionNotFoundError(id);
    }
    return subscription;
  }

  private async checkedUrl(raw: string): Promise<string> {
    try {
      return (await this.policy.check(raw)).url.href;
    } catch (error) {
      if (error instanceof TargetRefusedError) {
        throw new RequestValidationError([
          { field: 'url', validation: 'webhookTarget', message: error.message },
        ]);
      }
      throw error;
    }
  }
}

export function toSubscriptionDto(subscription: WebhookSubscription): SubscriptionDto {
  return {
    id: subscription.id,
    source: subscription.source as IntegrationSource,
    url: subscription.url,
    entities: subscription.entities as ChangeFeedEntity[],
    kinds: subscription.kinds as ChangeKind[],
    project_ids: subscription.projectIds,
    payload: subscription.payload,
    api_key: subscription.apiKey,
    status: subscription.status,
    failing_since: subscription.failingSince?.toISOString() ?? null,
    disabled_at: subscription.disabledAt?.toISOString() ?? null,
    disabled_reason: subscription.disabledReason,
    created_at: subscription.createdAt.toISOString(),
    updated_at: subscription.updatedAt.toISOString(),
  };
}
