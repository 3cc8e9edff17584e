import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { Role, type IntegrationSource } from '@platform/contracts';
import {
  findNul,
  normalizeFailure,
  RequestValidationError,
  UpstreamUnavailableError,
  type RenderedError,
} from '@platform/runtime';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IntegrationsErrorCode } from '../errors/integrations-error-code';
import { MainApiTokens } from '../credentials/main-api-tokens';
import { SecretBox } from '../credentials/secret-box';
import { IntegrationWritesService } from '../entities/integration-writes.service';
import { renderIntegrationsError } from '../errors/integrations-error.renderer';
import { asMainApiError, IntegrationsError } from '../errors/integrations.errors';
import { WebhookEventDto } from './dto/webhook-event.dto';
import { ENTITY_OPERATIONS } from '../entities/entity-operations';
import { checkSignature } from './incoming-signature';
import { sourceSecretPlace, type WebhookSourceSecret } from './webhook-source-secrets';
import type { WebhookSource } from './webhook-source.entity';
import { WebhooksRepository } from './webhooks.repository';

/** How far a delivery's timestamp may be from now (replay window). */
const WINDOW_SECONDS = 300;
/** An event left `received` this long (its process died) may be applied again. */
const STALE_SECONDS = 60;

export interface WebhookDelivery {
  source: IntegrationSource;
  companyHeader?: string;
  eventId?: string;
  timestamp?: string;
  signature?: string;
  rawBody?: Buffer;
  requestId: string;
}

export class WebhookAuthenticationError extends Error {}

/**
 * Incoming webhooks (docs/spec/decisions.md §7): the signature is checked over the raw bytes before anything is
 * read or stored, and it must cover the event id the events are deduplicated on: signed with it
 * (Standard Webhooks), or, in the documented form that signs timestamp and body only, bound to the
 * first id it came with. A verified event is stored once per event id, then applied through the
 * same create/update/delete path as the REST routes, as the API client set up for the source. A
 * duplicate delivery gets the first outcome again; one that failed because main-api was down is
 * applied again.
 */
@Injectable()
export class WebhookReceiverService {
  constructor(
    private readonly intake: WebhooksRepository,
    private readonly box: SecretBox,
    private readonly tokens: MainApiTokens,
    private readonly writes: IntegrationWritesService,
    private readonly principals: PrincipalContext,
  ) {}

  async receive(delivery: WebhookDelivery): Promise<RenderedError> {
    const { companyId, source, replayKey } = await this.authenticate(delivery);
    // From here every statement is the company's (the source said which).
    const eventId = delivery.eventId ?? '';
    if (!/^[\x21-\x7e]{1,255}$/.test(eventId)) {
      throw fieldError('X-Webhook-Id', 'X-Webhook-Id must be 1 to 255 visible ASCII characters');
    }
    if (replayKey) {
      await this.bindEventId(companyId, source.source, replayKey, eventId, Number(delivery.timestamp));
    }
    const event = await this.parse(delivery.rawBody as Buffer);
    const stored = await this.store(companyId, source.source, eventId, event);
    if (stored.kind === 'done') {
      return stored.outcome;
    }
    // From here the request acts as the API client set up for this source.
    this.principals.set({
      subject: 'client:webhook',
      companyId,
      roleId: Role.CLevel,
      tokenId: eventId,
      epoch: 0,
    });
    const outcome = await this.apply(source, eventId, event, delivery.requestId);
    await this.intake.recordOutcome(companyId, stored.id, outcome.eventStatus, outcome.rendered);
    return outcome.rendered;
  }

  /**
   * Company, known source, fresh timestamp, valid signature: or a 401 and nothing stored. A
   * signature of the documented form (which does not cover the event id) answers its replay key.
   */
  private async authenticate(
    delivery: WebhookDelivery,
  ): Promise<{ companyId: number; source: WebhookSource; replayKey?: Buffer }> {
    const companyId = Number(delivery.companyHeader);
    if (!Number.isSafeInteger(companyId) || companyId < 1) {
      throw new WebhookAuthenticationError('X-Company-Id must be your company id');
    }
    // Before the company is trusted, the source is looked up across companies (webhook-intake).
    const source = await this.intake.findSource(companyId, delivery.source);
    const timestamp = Number(delivery.timestamp);
    if (!Number.isSafeInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > WINDOW_SECONDS) {
      throw new WebhookAuthenticationError(
        'X-Webhook-Timestamp must be the Unix time of sending, within 5 minutes',
      );
    }
    if (!source || !delivery.signature || !delivery.rawBody) {
      throw new WebhookAuthenticationError('The signature does not match');
    }
    const checked = checkSignature({
      secret: await this.secretOf(source, 'signing_secret_sealed'),
      eventId: delivery.eventId ?? '',
      timestamp,
      body: delivery.rawBody,
      signature: delivery.signature,
    });
    if (!checked) {
      throw new WebhookAuthenticationError('The signature does not match');
    }
    return { companyId, source, ...(checked.form === 'documented' ? { replayKey: checked.replayKey } : {}) };
  }

  /**
   * Binds a signature of the documented form (timestamp and body, not the id) to the first event id
   * it came with: the same signature with another id is a replay (401), the same id again is a
   * retry and deduplicated as usual. A signature is only accepted within the replay window of its
   * timestamp, so it is remembered that long (and a minute more, for the clocks), not forever.
   */
  private async bindEventId(
    companyId: number,
    source: string,
    replayKey: Buffer,
    eventId: string,
    timestamp: number,
  ): Promise<void> {
    const bound = await this.intake.bindSignature(
      companyId,
      source,
      { replayKey, eventId, signedAt: timestamp },
      Math.floor(Date.now() / 1000) - WINDOW_SECONDS - 60,
    );
    if (bound !== eventId) {
      throw new WebhookAuthenticationError(
        'This signature was already used with another event id: sign the event id too ' +
          '(webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">)',
      );
    }
  }

  /**
   * A secret of the source. One sealed before secrets were bound to their row is opened, then
   * written again bound (once: a PUT in between wins), so sources move to the bound form as they
   * are used, with no migration holding the key.
   */
  private async secretOf(source: WebhookSource, column: WebhookSourceSecret): Promise<string> {
    const sealed =
      column === 'signing_secret_sealed' ? source.signingSecretSealed : source.clientSecretSealed;
    const place = sourceSecretPlace(source, column);
    const secret = this.box.open(sealed, place);
    if (!this.box.isBound(sealed)) {
      await this.intake.resealSecret(source, column, sealed, this.box.seal(secret, place));
    }
    return secret;
  }

  private async parse(rawBody: Buffer): Promise<WebhookEventDto> {
    let plain: unknown;
    try {
      plain = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw fieldError('body', 'The body must be a JSON event {action, entity, external_id, data}');
    }
    const nul = findNul(plain);
    if (nul !== undefined) {
      // PostgreSQL (jsonb) cannot store U+0000: refuse it here rather than fail there.
      throw fieldError(nul || 'body', `${nul || 'body'} must not contain the NUL character`);
    }
    const event = plainToInstance(WebhookEventDto, plain);
    const errors =
      typeof plain === 'object' && plain !== null ? await validate(event, { whitelist: true }) : [];
    if (typeof plain !== 'object' || plain === null || errors.length > 0) {
      throw errors.length > 0
        ? RequestValidationError.fromClassValidator(errors)
        : fieldError('body', 'The body must be a JSON object');
    }
    return event;
  }

  /** Stores the event once; a known event id answers its first outcome, unless it may be retried. */
  private async store(
    companyId: number,
    source: string,
    eventId: string,
    event: WebhookEventDto,
  ): Promise<{ kind: 'new'; id: string } | { kind: 'done'; outcome: RenderedError }> {
    const id = await this.intake.insertEvent(companyId, source, eventId, event, STALE_SECONDS);
    if (id) {
      return { kind: 'new', id };
    }
    const known = await this.intake.findEvent(companyId, source, eventId);
    if (!known || known.status === 'received') {
      return {
        kind: 'done',
        outcome: {
          status: 409,
          // The service's error body, as every refusal: the sender retries later.
          body: {
            error: 'ConflictError',
            message: `Event ${eventId} is being applied; retry later`,
            code: IntegrationsErrorCode.Generic,
          },
        },
      };
    }
    return {
      kind: 'done',
      outcome: replayOf(known.outcomeStatus ?? 200, known.outcome ?? {}),
    };
  }

  private async apply(
    source: WebhookSource,
    eventId: string,
    event: WebhookEventDto,
    requestId: string,
  ): Promise<{ eventStatus: 'applied' | 'failed' | 'retryable'; rendered: RenderedError }> {
    try {
      const operations = ENTITY_OPERATIONS[event.entity];
      const dtoClass = event.action === 'delete' ? undefined : operations[event.action];
      if (event.action === 'delete' ? !operations.delete : !dtoClass) {
        throw fieldError(
          'action',
          `${event.entity} cannot be ${event.action}d through the integrations service`,
        );
      }
      const token = await this.tokenOf(source);
      const caller = { authorization: `Bearer ${token}`, requestId };
      const sourceToken = source.source as IntegrationSource;
      let entity: Record<string, unknown>;
      if (event.action === 'delete') {
        entity = await this.writes.remove(event.entity, event.external_id, sourceToken, caller);
      } else {
        const body = await validated(dtoClass as NonNullable<typeof dtoClass>, {
          ...event.data,
          metadata: { source: sourceToken },
          ...(event.action === 'create' ? { id: event.external_id } : {}),
        });
        entity =
          event.action === 'create'
            ? await this.writes.create(event.entity, body as never, caller)
            : await this.writes.update(event.entity, event.external_id, body as never, caller);
      }
      const platformId = typeof entity.id === 'number' ? entity.id : null;
      return {
        eventStatus: 'applied',
        rendered: { status: 200, body: { event_id: eventId, status: 'applied', platform_id: platformId } },
      };
    } catch (error) {
      if (error instanceof IntegrationsError && error.status === 401) {
        // The cached token was revoked (its API client revoked or changed): the next event asks
        // main-api for a new one, which a revoked client does not get.
        this.tokens.forget(source.apiKey);
      }
      const rendered = renderIntegrationsError(normalizeFailure(error), error);
      const retryable = error instanceof UpstreamUnavailableError || rendered.status >= 500;
      return { eventStatus: retryable ? 'retryable' : 'failed', rendered };
    }
  }

  /** A token of the source's API client; main-api's refusal (revoked, secret changed) passed on as ZC003. */
  private async tokenOf(source: WebhookSource): Promise<string> {
    try {
      return await this.tokens.tokenFor(source.apiKey, await this.secretOf(source, 'client_secret_sealed'));
    } catch (error) {
      throw asMainApiError(error, 'main-api refused the API client of this source');
    }
  }
}

async function validated(dtoClass: new () => object, plain: object): Promise<object> {
  const instance = plainToInstance(dtoClass, plain);
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw RequestValidationError.fromClassValidator(errors);
  }
  return instance;
}

function fieldError(field: string, message: string): RequestValidationError {
  return new RequestValidationError([{ field, validation: 'webhook', message }]);
}

/**
 * The first outcome again: an applied event marked `duplicate: true`, a refusal as it was (an error
 * body takes no other field).
 */
function replayOf(status: number, outcome: object): { status: number; body: object } {
  return { status, body: status < 300 ? { ...outcome, duplicate: true } : outcome };
}
