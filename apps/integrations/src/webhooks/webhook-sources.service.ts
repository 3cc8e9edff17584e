import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { IntegrationsErrorCode, type IntegrationSource } from '@platform/contracts';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { DataSource } from 'typeorm';
import { ApiClientVerifier } from '../credentials/api-client-verifier';
import { MainApiTokens } from '../credentials/main-api-tokens';
import { SecretBox } from '../credentials/secret-box';
import { IntegrationsError } from '../errors/integrations.errors';
import type {
  PutWebhookSourceDto,
  WebhookSourceDto,
  WebhookSourceWithSecretDto,
} from './dto/webhook-source.dto';
import { WebhookSource } from './webhook-source.entity';

/** C-Level users set up which external systems may send webhooks, and as which API client. */
@Injectable()
export class WebhookSourcesService {
  private readonly sources: TenantRepository<WebhookSource>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
    private readonly tokens: MainApiTokens,
    private readonly apiClients: ApiClientVerifier,
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {
    this.sources = repositories.for(WebhookSource);
  }

  /** Sets up (or rotates) a source: checks the API client with main-api, answers a new signing secret once. */
  async put(source: IntegrationSource, body: PutWebhookSourceDto): Promise<WebhookSourceWithSecretDto> {
    await this.apiClients.verify(body, 'apply events');
    const signingSecret = `whsec_${randomBytes(32).toString('base64url')}`;
    const companyId = this.principals.companyId();
    await this.dataSource.query(
      `INSERT INTO webhook_sources (company_id, source, signing_secret_sealed, api_key, client_secret_sealed)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (company_id, source) DO UPDATE SET signing_secret_sealed = EXCLUDED.signing_secret_sealed,
         api_key = EXCLUDED.api_key, client_secret_sealed = EXCLUDED.client_secret_sealed, updated_at = now()`,
      [companyId, source, this.box.seal(signingSecret), body.api_key, this.box.seal(body.client_secret)],
    );
    this.tokens.forget(body.api_key);
    const [stored] = await this.sources.find({ where: { source } });
    return { ...toDto(stored), signing_secret: signingSecret };
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
