import { Injectable } from '@nestjs/common';
import { type IntegrationSource } from '@platform/contracts';
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
import type { WebhookSource } from './webhook-source.entity';
import { WebhookSourcesRepository } from './webhook-sources.repository';

/** C-Level users set up which external systems may send webhooks, and as which API client. */
@Injectable()
export class WebhookSourcesService {
  constructor(
    private readonly sources: WebhookSourcesRepository,
    private readonly tokens: MainApiTokens,
    private readonly apiClients: ApiClientVerifier,
    private readonly box: SecretBox,
  ) {}

  /** Sets up (or rotates) a source: checks the API client with main-api, answers a new signing secret once. */
  async put(source: IntegrationSource, body: PutWebhookSourceDto): Promise<WebhookSourceWithSecretDto> {
    await this.apiClients.verify(body, 'apply events');
    // Standard Webhooks form (base64 after whsec_), so its libraries can sign with it as it is.
    const signingSecret = newSigningSecret();
    await this.sources.upsert(source, (row) => ({
      signingSecretSealed: this.box.seal(signingSecret, sourceSecretPlace(row, 'signing_secret_sealed')),
      apiKey: body.api_key,
      clientSecretSealed: this.box.seal(body.client_secret, sourceSecretPlace(row, 'client_secret_sealed')),
    }));
    this.tokens.forget(body.api_key);
    // Read back for its timestamps; the row was just written (a DELETE racing this PUT fails it).
    const stored = (await this.sources.find(source)) as WebhookSource;
    return { ...toDto(stored), signing_secret: signingSecret };
  }

  async list(): Promise<WebhookSourceDto[]> {
    return (await this.sources.list()).map(toDto);
  }

  async remove(source: IntegrationSource): Promise<WebhookSourceDto> {
    const stored = await this.sources.find(source);
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
