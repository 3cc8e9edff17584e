import { Injectable } from '@nestjs/common';
import { TenantScopes, type TenantScope } from '@platform/database';
import type { WebhookEvent, WebhookEventStatus } from './webhook-event.entity';
import type { WebhookSourceSecret } from './webhook-source-secrets';
import type { WebhookSource } from './webhook-source.entity';

/** What a stored event answered the first time. */
export type KnownWebhookEvent = Pick<WebhookEvent, 'status' | 'outcomeStatus' | 'outcome'>;

/**
 * What webhook intake reads and writes. An incoming webhook is no request of a verified company:
 * its source is found across companies (`webhook-intake`), and everything after that runs in the
 * scope of the company the source belongs to (TenantScopes.forCompany).
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly scopes: TenantScopes) {}

  /** The company's source of this name, looked up before the company is trusted. */
  async findSource(companyId: number, source: string): Promise<WebhookSource | undefined> {
    const [found] = await this.scopes.acrossCompanies('webhook-intake').sql.select<WebhookSource>(
      `SELECT id, company_id AS "companyId", source, signing_secret_sealed AS "signingSecretSealed",
              api_key AS "apiKey", client_secret_sealed AS "clientSecretSealed",
              created_at AS "createdAt", updated_at AS "updatedAt"
         FROM webhook_sources WHERE company_id = $1 AND source = $2 LIMIT 1`,
      [companyId, source],
    );
    return found;
  }

  /**
   * Writes a secret of the source sealed again, unless it changed since it was read (a PUT in
   * between wins).
   */
  async resealSecret(
    source: WebhookSource,
    column: WebhookSourceSecret,
    previous: string,
    sealed: string,
  ): Promise<void> {
    await this.scope(source.companyId).sql.execute(
      `UPDATE webhook_sources SET ${column} = $1 WHERE id = $2 AND ${column} = $3`,
      [sealed, source.id, previous],
    );
  }

  /**
   * Binds a signature (its replay key) to an event id, first forgetting the signatures of the
   * source signed before `forgetSignedBefore` (Unix seconds); answers the event id the signature is
   * bound to: this one, or the one it came with first. The row of a concurrent first delivery is
   * waited for, then answered (DO UPDATE locks it).
   */
  async bindSignature(
    companyId: number,
    source: string,
    signature: { replayKey: Buffer; eventId: string; signedAt: number },
    forgetSignedBefore: number,
  ): Promise<string | undefined> {
    const scope = this.scope(companyId);
    await scope.sql.execute(
      'DELETE FROM webhook_signatures WHERE company_id = $1 AND source = $2 AND signed_at < to_timestamp($3)',
      [companyId, source, forgetSignedBefore],
    );
    const [bound] = await scope.sql.execute<{ event_id: string }>(
      `INSERT INTO webhook_signatures (company_id, source, replay_key, event_id, signed_at)
       VALUES ($1, $2, $3, $4, to_timestamp($5))
       ON CONFLICT (company_id, source, replay_key) DO UPDATE SET event_id = webhook_signatures.event_id
       RETURNING event_id`,
      [companyId, source, signature.replayKey, signature.eventId, signature.signedAt],
    );
    return bound?.event_id;
  }

  /**
   * Stores a new event; answers its row id, or undefined when the event id is known. A known event
   * is taken over (answered as new) when it may be applied again: it is `retryable`, or it was left
   * `received` longer than `staleSeconds` ago (its process died).
   */
  async insertEvent(
    companyId: number,
    source: string,
    eventId: string,
    payload: object,
    staleSeconds: number,
  ): Promise<string | undefined> {
    const inserted = await this.scope(companyId).sql.execute<{ id: string }>(
      `INSERT INTO webhook_events (company_id, source, event_id, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (company_id, source, event_id) DO UPDATE SET status = 'received', received_at = now()
         WHERE webhook_events.status = 'retryable'
            OR (webhook_events.status = 'received' AND webhook_events.received_at < now() - make_interval(secs => $5))
       RETURNING id`,
      [companyId, source, eventId, JSON.stringify(payload), staleSeconds],
    );
    return inserted[0]?.id;
  }

  async findEvent(
    companyId: number,
    source: string,
    eventId: string,
  ): Promise<KnownWebhookEvent | undefined> {
    const [known] = await this.scope(companyId).sql.select<KnownWebhookEvent>(
      `SELECT status, outcome_status AS "outcomeStatus", outcome FROM webhook_events
        WHERE company_id = $1 AND source = $2 AND event_id = $3`,
      [companyId, source, eventId],
    );
    return known;
  }

  /** The outcome of applying a stored event, answered again to a duplicate delivery. */
  async recordOutcome(
    companyId: number,
    id: string,
    eventStatus: Exclude<WebhookEventStatus, 'received'>,
    outcome: { status: number; body: object },
  ): Promise<void> {
    await this.scope(companyId).sql.execute(
      `UPDATE webhook_events SET status = $2::varchar, outcome_status = $3, outcome = $4,
         applied_at = CASE WHEN $2::varchar = 'applied' THEN now() ELSE applied_at END
       WHERE id = $1`,
      [id, eventStatus, outcome.status, JSON.stringify(outcome.body)],
    );
  }

  private scope(companyId: number): TenantScope {
    return this.scopes.forCompany(companyId);
  }
}
