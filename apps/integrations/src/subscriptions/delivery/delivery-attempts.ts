import { Inject, Injectable, Logger } from '@nestjs/common';
import { TenantScopes, type ScopedSql } from '@platform/database';
import { IntegrationsErrorCode } from '../../errors/integrations-error-code';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../../config/integrations.env';
import { SecretBox } from '../../credentials/secret-box';
import { subscriptionSecretPlace } from '../subscription-secrets';
import { DeliveryMetrics } from './delivery-metrics';
import { CLAIM_LOCK, FAIR_CLAIM_SQL } from './fair-claim';
import { retryDelayMs } from './retry-schedule';
import { TargetPolicy } from './target-policy';
import { sendSignedWebhook, type WebhookAnswer } from './webhook-sender';
import { webhookIdOf } from './webhook-signature';

/** Room for DNS and bookkeeping beyond the attempt's own deadline before a lease runs out. */
const LEASE_MARGIN_MS = 30_000;
const MAX_ERROR_LENGTH = 500;

/** A delivery a worker claimed: its attempt number is its own, nobody else makes it. */
export interface ClaimedAttempt {
  deliveryId: string;
  companyId: number;
  subscriptionId: string;
  attempt: number;
  attemptId: string;
  url: string;
  signingSecretSealed: string;
  /** The frozen JSON body. */
  payload: string;
}

interface ClaimedRow {
  id: string;
  company_id: number;
  subscription_id: string;
  attempts: number;
  payload: string;
  url: string;
  signing_secret_sealed: string;
}

/** The rows of an `UPDATE ... RETURNING` (TypeORM answers `[rows, affected]` for an UPDATE). */
function updatedRows<Row>(result: unknown): Row[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Row[];
}

function groupByCompany(rows: ClaimedRow[]): Map<number, ClaimedRow[]> {
  const groups = new Map<number, ClaimedRow[]>();
  for (const row of rows) {
    groups.set(row.company_id, [...(groups.get(row.company_id) ?? []), row]);
  }
  return groups;
}

type Outcome =
  | { kind: 'delivered'; statusCode: number }
  | { kind: 'failed'; statusCode: number | null; error: string | null }
  | { kind: 'interrupted' };

/**
 * Delivery attempts, from claim to outcome. A claim takes due deliveries in turns across companies,
 * within each company's and each host's cap of attempts under way (see FAIR_CLAIM_SQL), with FOR
 * UPDATE SKIP LOCKED, leases them (next_attempt_at moves past the attempt's deadline), numbers the
 * attempt and records it, and commits before any HTTP call: two workers never hold the same attempt,
 * and the (delivery, attempt) key in the database says so. The outcome then delivers, reschedules
 * along the retry schedule, fails the delivery, or disables a subscription that has failed for too long.
 */
@Injectable()
export class DeliveryAttempts {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    private readonly scopes: TenantScopes,
    private readonly policy: TargetPolicy,
    private readonly box: SecretBox,
    @Inject(INTEGRATIONS_ENV) private readonly env: IntegrationsEnv,
    private readonly metrics: DeliveryMetrics,
  ) {}

  async claim(limit: number): Promise<ClaimedAttempt[]> {
    if (limit <= 0) {
      return [];
    }
    // The claim spans companies (the `delivery` purpose); the attempts it records are each
    // company's, written in the same transaction with that company's settings.
    return this.scopes.acrossCompanies('delivery').transaction(async (unit) => {
      // One claim at a time, over all replicas. A claim counts each company's room in its own
      // snapshot, and FOR UPDATE SKIP LOCKED only keeps two claims from taking the same delivery:
      // two claims offered different deliveries (one queued or requeued between their snapshots)
      // could both fill the same room. Under this transaction-scoped lock the claim statement's
      // snapshot (READ COMMITTED: taken when the statement starts, after the lock is granted)
      // includes every earlier claim's attempts. A claim is one statement of milliseconds and no
      // HTTP call is made under the lock, so replicas barely wait for each other.
      await unit.sql.execute('SELECT pg_advisory_xact_lock(hashtext($1))', [CLAIM_LOCK]);
      const claimed = updatedRows<ClaimedRow>(
        await unit.sql.execute(FAIR_CLAIM_SQL, [
          limit,
          (this.env.DELIVERY_TIMEOUT_MS + LEASE_MARGIN_MS) / 1000,
          this.env.DELIVERY_MAX_IN_FLIGHT_PER_COMPANY,
          this.env.DELIVERY_MAX_IN_FLIGHT_PER_HOST,
        ]),
      );
      if (claimed.length === 0) {
        return [];
      }
      const attempts: { id: string; delivery_id: string }[] = [];
      for (const [companyId, rows] of groupByCompany(claimed)) {
        const deliveryIds = rows.map((row) => row.id);
        const company = unit.forCompany(companyId);
        // An attempt still open belongs to a worker that stopped before recording it (its lease ran out).
        await company.sql.execute(
          `UPDATE webhook_delivery_attempts SET finished_at = now(), error = 'abandoned: the worker stopped before an answer'
            WHERE delivery_id = ANY($1::uuid[]) AND finished_at IS NULL`,
          [deliveryIds],
        );
        attempts.push(
          ...(await company.sql.execute<{ id: string; delivery_id: string }>(
            `INSERT INTO webhook_delivery_attempts (company_id, delivery_id, attempt)
             SELECT $1, * FROM unnest($2::uuid[], $3::int[])
             RETURNING id, delivery_id`,
            [companyId, deliveryIds, rows.map((row) => row.attempts)],
          )),
        );
      }
      const attemptIds = new Map(attempts.map((row) => [row.delivery_id, row.id]));
      return claimed.map((row) => ({
        deliveryId: row.id,
        companyId: row.company_id,
        subscriptionId: row.subscription_id,
        attempt: row.attempts,
        attemptId: attemptIds.get(row.id) as string,
        url: row.url,
        signingSecretSealed: row.signing_secret_sealed,
        payload: row.payload,
      }));
    });
  }

  /** Makes the attempt and records its outcome; never throws for the receiver's sake. */
  async attempt(claimed: ClaimedAttempt, signal: AbortSignal): Promise<void> {
    const startedAt = new Date();
    const answer = await this.send(claimed, signal);
    const durationMs = Date.now() - startedAt.getTime();
    const outcome: Outcome = signal.aborted
      ? { kind: 'interrupted' }
      : 'statusCode' in answer && answer.statusCode >= 200 && answer.statusCode < 300
        ? { kind: 'delivered', statusCode: answer.statusCode }
        : 'statusCode' in answer
          ? {
              kind: 'failed',
              statusCode: answer.statusCode,
              error: `the receiver answered ${answer.statusCode}`,
            }
          : { kind: 'failed', statusCode: null, error: answer.error.slice(0, MAX_ERROR_LENGTH) };
    if (outcome.kind === 'failed') {
      this.logger.warn(
        {
          code: IntegrationsErrorCode.ExternalRequest,
          company_id: claimed.companyId,
          subscription_id: claimed.subscriptionId,
          delivery_id: claimed.deliveryId,
          attempt: claimed.attempt,
          status_code: outcome.statusCode,
          error: outcome.error,
        },
        'webhook delivery attempt failed',
      );
    }
    this.metrics.attemptFinished(outcome.kind);
    // After the HTTP call, in a transaction of the delivery's company.
    await this.scopes
      .forCompany(claimed.companyId)
      .transaction((unit) => this.record(unit.sql, claimed, outcome, startedAt, durationMs));
  }

  private send(claimed: ClaimedAttempt, signal: AbortSignal): Promise<WebhookAnswer> {
    return sendSignedWebhook(this.policy, {
      url: claimed.url,
      signingSecret: this.box.open(
        claimed.signingSecretSealed,
        subscriptionSecretPlace(
          { companyId: claimed.companyId, id: claimed.subscriptionId },
          'signing_secret_sealed',
        ),
      ),
      webhookId: webhookIdOf(claimed.deliveryId),
      body: claimed.payload,
      timeoutMs: this.env.DELIVERY_TIMEOUT_MS,
      connectTimeoutMs: this.env.DELIVERY_CONNECT_TIMEOUT_MS,
      signal,
    });
  }

  private async record(
    sql: ScopedSql,
    claimed: ClaimedAttempt,
    outcome: Outcome,
    startedAt: Date,
    durationMs: number,
  ): Promise<void> {
    // The subscription first: deleting a subscription locks it, then its deliveries and attempts
    // (ON DELETE CASCADE). Taking the attempt and the delivery before the subscription, as this did,
    // deadlocked with a concurrent delete.
    await sql.execute('SELECT 1 FROM webhook_subscriptions WHERE id = $1 FOR NO KEY UPDATE', [
      claimed.subscriptionId,
    ]);
    await sql.execute(
      `UPDATE webhook_delivery_attempts SET finished_at = now(), status_code = $2, error = $3, duration_ms = $4
        WHERE id = $1 AND finished_at IS NULL`,
      [
        claimed.attemptId,
        outcome.kind === 'interrupted' ? null : outcome.statusCode,
        outcome.kind === 'interrupted'
          ? 'interrupted: the worker stopped'
          : outcome.kind === 'failed'
            ? outcome.error
            : null,
        durationMs,
      ],
    );
    switch (outcome.kind) {
      case 'delivered':
        await sql.execute(
          `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_status_code = $2,
                  last_error = NULL, updated_at = now()
            WHERE id = $1`,
          [claimed.deliveryId, outcome.statusCode],
        );
        await sql.execute(
          `UPDATE webhook_subscriptions SET failing_since = NULL, updated_at = now()
            WHERE id = $1 AND failing_since IS NOT NULL`,
          [claimed.subscriptionId],
        );
        return;
      case 'interrupted':
        // Not the receiver's fault: due again at once, for whichever replica is still running.
        await sql.execute(
          `UPDATE webhook_deliveries SET next_attempt_at = now(), updated_at = now()
            WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
          [claimed.deliveryId, claimed.attempt],
        );
        return;
      case 'failed':
        await this.recordFailure(sql, claimed, outcome, startedAt);
        return;
    }
  }

  private async recordFailure(
    sql: ScopedSql,
    claimed: ClaimedAttempt,
    outcome: Extract<Outcome, { kind: 'failed' }>,
    startedAt: Date,
  ): Promise<void> {
    // Only the latest attempt of a pending delivery moves it: a replay or a newer attempt may have.
    const [current] = await sql.execute<{ failed_attempts: number }>(
      `SELECT failed_attempts FROM webhook_deliveries WHERE id = $1 AND attempts = $2 AND status = 'pending' FOR UPDATE`,
      [claimed.deliveryId, claimed.attempt],
    );
    if (current) {
      const failedAttempts = current.failed_attempts + 1;
      const delayMs = retryDelayMs(this.env.DELIVERY_RETRY_SCHEDULE_MS, failedAttempts);
      await sql.execute(
        `UPDATE webhook_deliveries
            SET failed_attempts = $2, last_status_code = $3, last_error = $4, updated_at = now(),
                status = CASE WHEN $5::float8 IS NULL THEN 'failed' ELSE 'pending' END,
                next_attempt_at = CASE WHEN $5::float8 IS NULL THEN next_attempt_at
                                       ELSE now() + make_interval(secs => $5::float8 / 1000) END
          WHERE id = $1`,
        [claimed.deliveryId, failedAttempts, outcome.statusCode, outcome.error, delayMs ?? null],
      );
      if (delayMs === undefined) {
        this.logger.warn(
          {
            code: IntegrationsErrorCode.ExternalRequest,
            company_id: claimed.companyId,
            subscription_id: claimed.subscriptionId,
            delivery_id: claimed.deliveryId,
            attempts: claimed.attempt,
          },
          'webhook delivery failed: its retries are used up',
        );
      }
    }
    const [subscription] = updatedRows<{ failing_since: Date; overdue: boolean }>(
      await sql.execute(
        `UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, $2), updated_at = now()
          WHERE id = $1 AND status = 'active'
         RETURNING failing_since, failing_since <= now() - make_interval(secs => $3::float8 / 1000) AS overdue`,
        [claimed.subscriptionId, startedAt, this.env.SUBSCRIPTION_DISABLE_AFTER_MS],
      ),
    );
    if (subscription?.overdue) {
      await this.disable(sql, claimed, subscription.failing_since, outcome);
    }
  }

  /** Stops a subscription whose deliveries have failed for too long, and says so in the log. */
  private async disable(
    sql: ScopedSql,
    claimed: ClaimedAttempt,
    failingSince: Date,
    outcome: Extract<Outcome, { kind: 'failed' }>,
  ): Promise<void> {
    const last = outcome.statusCode === null ? (outcome.error ?? 'no answer') : `HTTP ${outcome.statusCode}`;
    const reason = `deliveries failed continuously since ${failingSince.toISOString()} (last: ${last})`.slice(
      0,
      MAX_ERROR_LENGTH,
    );
    await sql.execute(
      `UPDATE webhook_subscriptions SET status = 'disabled', disabled_at = now(), disabled_reason = $2, updated_at = now()
        WHERE id = $1 AND status = 'active'`,
      [claimed.subscriptionId, reason],
    );
    await sql.execute(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the subscription was disabled', updated_at = now()
        WHERE subscription_id = $1 AND status = 'pending'`,
      [claimed.subscriptionId],
    );
    this.logger.warn(
      {
        code: IntegrationsErrorCode.ExternalRequest,
        company_id: claimed.companyId,
        subscription_id: claimed.subscriptionId,
        reason,
      },
      'webhook subscription disabled: its deliveries kept failing',
    );
  }
}
