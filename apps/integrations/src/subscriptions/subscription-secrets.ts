import type { SealedIn } from '../credentials/secret-box';

/** The two sealed columns of webhook_subscriptions. */
export type SubscriptionSecret = 'signing_secret_sealed' | 'client_secret_sealed';

/**
 * Where a subscription's secret is sealed: the SecretBox binds it to its company, row and column.
 * Secrets of subscriptions created before this binding are unbound (v1) and open whatever the place.
 */
export function subscriptionSecretPlace(
  subscription: { companyId: number; id: string },
  column: SubscriptionSecret,
): SealedIn {
  return { companyId: subscription.companyId, table: 'webhook_subscriptions', id: subscription.id, column };
}
