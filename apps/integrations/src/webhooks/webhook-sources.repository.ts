import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { IntegrationSource } from '@platform/contracts';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import { WebhookSource } from './webhook-source.entity';

/** What a PUT of a source writes: its secrets are sealed for their row (webhook-source-secrets.ts). */
export type WebhookSourceFields = Pick<
  WebhookSource,
  'signingSecretSealed' | 'apiKey' | 'clientSecretSealed'
>;

/** The webhook sources of the caller's company (RequestTenantScope). */
@Injectable()
export class WebhookSourcesRepository {
  private readonly sources: TenantRepository<WebhookSource>;

  constructor(private readonly scope: RequestTenantScope) {
    this.sources = scope.repository(WebhookSource);
  }

  async find(source: IntegrationSource): Promise<WebhookSource | undefined> {
    const [stored] = await this.sources.find({ where: { source } });
    return stored;
  }

  /** By source name. */
  list(): Promise<WebhookSource[]> {
    return this.sources.find({ order: { source: 'ASC' } });
  }

  delete(stored: WebhookSource): Promise<void> {
    return this.sources.delete(stored);
  }

  /**
   * Inserts or updates the company's row of `source`. The row's id is settled first (the existing
   * row's, or a new one) and handed to `fieldsFor` with its company, so the secrets can be sealed
   * for the row they are stored in.
   */
  async upsert(
    source: IntegrationSource,
    fieldsFor: (row: { id: string; companyId: number }) => WebhookSourceFields,
  ): Promise<void> {
    const companyId = this.scope.companyId();
    // Again when a concurrent PUT or DELETE of the same source came between the two statements.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const [existing] = await this.scope.sql.select<{ id: string }>(
        'SELECT id FROM webhook_sources WHERE company_id = $1 AND source = $2',
        [companyId, source],
      );
      const row = { companyId, id: existing?.id ?? randomUUID() };
      const fields = fieldsFor(row);
      const values = [
        row.id,
        companyId,
        source,
        fields.signingSecretSealed,
        fields.apiKey,
        fields.clientSecretSealed,
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
}
