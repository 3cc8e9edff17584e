import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type IntegrationSource } from '@platform/contracts';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import { IntegrationsErrorCode } from '../errors/integrations-error-code';
import { ApiClientVerifier } from '../credentials/api-client-verifier';
import { MainApiTokens } from '../credentials/main-api-tokens';
import { SecretBox } from '../credentials/secret-box';
import { IntegrationsError } from '../errors/integrations.errors';
import { newSigningSecret } from '../subscriptions/delivery/webhook-signature';
import type {
  PutWebhookSourceDto,
  WebhookSourceDto,
  WebhookSourceWithSecretDto,
} from './dto/webhook-source.dto';
import { sourceSecretPlace } from './webhook-source-secrets';
import { WebhookSource } from './webhook-source.entity';

/** C-Level users set up which external systems may send webhooks, and as which API client. */
@Injectable()
export class WebhookSourcesService {
  private readonly sources: TenantRepository<WebhookSource>;

  constructor(
    private readonly scope: RequestTenantScope,
    private readonly tokens: MainApiTokens,
    private readonly apiClients: ApiClientVerifier,
    private readonly box: SecretBox,
  ) {
    this.sources = scope.repository(WebhookSource);
  }

  /** Sets up (or rotates) a source: checks the API client with main-api, answers a new signing secret once. */
  async put(source: IntegrationSource, body: PutWebhookSourceDto): Promise<WebhookSourceWithSecretDto> {
    await this.apiClients.verify(body, 'apply events');
    // Standard Webhooks form (base64 after whsec_), so its libraries can sign with it as it is.
    const signingSecret = newSigningSecret();
    await this.store(this.scope.companyId(), source, signingSecret, body);
    this.tokens.forget(body.api_key);
    const [stored] = await this.sources.find({ where: { source } });
    return { ...toDto(stored), signing_secret: signingSecret };
  }

  /**
   * Inserts or updates the company's row of `source`. The secrets are sealed for the row they are
   * stored in (its id included), so the id is settled first: the existing row's, or a new one.
   */
  private async store(
    companyId: number,
    source: IntegrationSource,
    signingSecret: string,
    body: PutWebhookSourceDto,
  ): Promise<void> {
    // Again when a concurrent PUT or DELETE of the same source came between the two statements.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const [existing] = await this.scope.sql.select<{ id: string }>(
        'SELECT id FROM webhook_sources WHERE company_id = $1 AND source = $2',
        [companyId, source],
      );
      const row = { companyId, id: existing?.id ?? randomUUID() };
      const values = [
        row.id,
        companyId,
        source,
        this.box.seal(signingSecret, sourceSecretPlace(row, 'signing_secret_sealed')),
        body.api_key,
        this.box.seal(body.client_secret, sourceSecretPlace(row, 'client_secret_sealed')),
      ];
      // In a WITH, so that both answer the rows written (the driver answers a bare UPDATE differently).
      const written = await this.scope.sql.execute<{ id: string }>(
        existing
          ? `WITH written AS (
               UPDATE webhook_sources SET signing_secret_sealed = $4, api_key = $5, client_secret_sealed = $6,
                 updated_at = now()
               WHERE id = $1 AND company_id = $2 AND source = $3 RETURNING id)
             SELECT id FROM written`
          : `WITH written AS (
               INSERT INTO webhook_sources (id, company_id, source, signing_secret_sealed, api_key, client_secret_sealed)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (company_id, source) DO NOTHING RETURNING id)
             SELECT id FROM written`,
        values,
      );
      if (written.length > 0) {
        return;
      }
    }
    throw new Error(`webhook source ${source} kept changing while it was being set up`);
  }

  async list(): Promise<WebhookSourceDto[]> {
    return (await this.sources.find({ order: { source: 'ASC' } })).map(toDto);
  }

  async remove(source: IntegrationSource): Promise<WebhookSourceDto> {
    const [stored] = await this.sources.find({ where: { source } });
    if (!stored) {
      throw new IntegrationsError(
        'WebhookSourceNotFoundError',
        IntegrationsErrorCode.Generic,
        404,
        `No webhook source ${source} is set up for your company`,
      );
    }
    await this.sources.delete(stored);
    this.tokens.forget(stored.apiKey);
    return toDto(stored);
  }
}

function toDto(source: WebhookSource): WebhookSourceDto {
  return {
    source: source.source as IntegrationSource,
    api_key: source.apiKey,
    created_at: source.createdAt.toISOString(),
    updated_at: source.updatedAt.toISOString(),
  };
}
