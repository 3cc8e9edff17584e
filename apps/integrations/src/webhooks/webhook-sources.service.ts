import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { IntegrationsErrorCode, Role, type IntegrationSource } from '@platform/contracts';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { MainApiRequestError } from '@platform/main-api-client';
import { RequestValidationError } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../config/integrations.env';
import { IntegrationsError } from '../errors/integrations.errors';
import type {
  PutWebhookSourceDto,
  WebhookSourceDto,
  WebhookSourceWithSecretDto,
} from './dto/webhook-source.dto';
import { claimsOf, MainApiTokens } from './main-api-tokens';
import { SecretBox } from './secret-box';
import { WebhookSource } from './webhook-source.entity';

const ROLES_THAT_MAY_APPLY = new Set<unknown>([Role.CLevel, Role.Director]);

/** C-Level users set up which external systems may send webhooks, and as which API client. */
@Injectable()
export class WebhookSourcesService {
  private readonly sources: TenantRepository<WebhookSource>;
  readonly box: SecretBox;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
    private readonly tokens: MainApiTokens,
    private readonly dataSource: DataSource,
    @Inject(INTEGRATIONS_ENV) env: IntegrationsEnv,
  ) {
    this.sources = repositories.for(WebhookSource);
    this.box = new SecretBox(env.INTEGRATIONS_ENCRYPTION_KEY);
  }

  /** Sets up (or rotates) a source: checks the API client with main-api, answers a new signing secret once. */
  async put(source: IntegrationSource, body: PutWebhookSourceDto): Promise<WebhookSourceWithSecretDto> {
    await this.checkApiClient(body);
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

  /** The API client must work, belong to the caller's company and have a role that may apply events. */
  private async checkApiClient(body: PutWebhookSourceDto): Promise<void> {
    let token: string;
    try {
      token = await this.tokens.tokenFor(body.api_key, body.client_secret);
    } catch (error) {
      if (error instanceof MainApiRequestError) {
        throw invalidCredentials('main-api refused api_key and client_secret');
      }
      throw error;
    }
    const claims = claimsOf(token);
    if (claims.company_id !== this.principals.companyId()) {
      throw invalidCredentials('the API client belongs to another company');
    }
    if (!ROLES_THAT_MAY_APPLY.has(claims.role_id)) {
      throw invalidCredentials('the API client needs role 1 (C-Level) or 2 (Director) to apply events');
    }
  }
}

function invalidCredentials(reason: string): RequestValidationError {
  return new RequestValidationError([
    { field: 'api_key', validation: 'validApiClient', message: `api_key and client_secret: ${reason}` },
  ]);
}

function toDto(source: WebhookSource): WebhookSourceDto {
  return {
    source: source.source as IntegrationSource,
    api_key: source.apiKey,
    created_at: source.createdAt.toISOString(),
    updated_at: source.updatedAt.toISOString(),
  };
}
