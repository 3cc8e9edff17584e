/**
 * @agency-platform/sdk: typed clients for main-api, planner and integrations (openapi-fetch over
 * the services' OpenAPI documents) with token handling, Retry-After retries, cursor iteration,
 * If-Match writes and Standard Webhooks verification. README.md shows each in use.
 */
export {
  createPlatformSdk,
  type PlatformAuth,
  type PlatformSdk,
  type PlatformSdkOptions,
} from './platform-sdk';
export type {
  IntegrationsApi,
  IntegrationsClient,
  MainApi,
  MainApiClient,
  PlannerApi,
  PlannerClient,
} from '@platform/api-clients';
export { PlatformApiError, LoginEndedError, dataOf, type ApiAnswer } from './errors';
export { AccessTokenCache, type AccessTokenSource, type TokenTiming } from './tokens/access-token-source';
export { authMiddleware } from './tokens/auth-middleware';
export {
  ClientCredentialsTokenSource,
  type ClientCredentials,
} from './tokens/client-credentials-token-source';
export { RefreshTokenSource, type RefreshTokenLogin } from './tokens/refresh-token-source';
export { TokenEndpoint, basicCredentials, type TokenResponse } from './tokens/token-endpoint';
export {
  retryMiddleware,
  followRetryAfter,
  sendFollowingRetryAfter,
  type Send,
} from './retries/retry-middleware';
export {
  DEFAULT_RETRY_POLICY,
  RETRYABLE_STATUSES,
  isRepeatable,
  retryAfterMs,
  type RetryPolicy,
} from './retries/retry-policy';
export {
  cursorItems,
  cursorPages,
  type CursorItemOf,
  type CursorPage,
  type CursorPageOf,
  type PageRequest,
} from './cursor/cursor-pages';
export {
  readTagged,
  writeIfMatch,
  type CurrentOf,
  type IfMatchHeader,
  type IfMatchOutcome,
  type Tagged,
} from './conditional/if-match';
export {
  verifyWebhook,
  WebhookVerificationError,
  WEBHOOK_TOLERANCE_SECONDS,
  type OutboundWebhook,
  type WebhookHeaders,
  type WebhookVerificationOptions,
} from './webhooks/verify-webhook';
export {
  subscribeToChanges,
  type ChangeSubscription,
  type ChangeSubscriptionOptions,
  type EventSourceConstructor,
  type EventSourceLike,
  type MainApiChangeEvent,
  type PlannerChangeEvent,
  type SubscriptionEnd,
} from './events/change-subscription';
