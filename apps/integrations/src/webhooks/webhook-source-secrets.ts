import type { SealedIn } from '../credentials/secret-box';

/** The two sealed columns of webhook_sources. */
export type WebhookSourceSecret = 'signing_secret_sealed' | 'client_secret_sealed';

/** Where a webhook source's secret is sealed: the SecretBox binds it to its company, row and column. */
export function sourceSecretPlace(
  source: { companyId: number; id: string },
  column: WebhookSourceSecret,
): SealedIn {
  return { companyId: source.companyId, table: 'webhook_sources', id: source.id, column };
}
