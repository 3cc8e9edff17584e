import {
  createIntegrationsClient,
  createMainApiClient,
  createPlannerClient,
  type IntegrationsClient,
  type MainApiClient,
  type PlannerClient,
} from '@platform/api-clients';
import { readTagged, writeIfMatch } from './conditional/if-match';
import { cursorItems, cursorPages } from './cursor/cursor-pages';
import { retryMiddleware, sendFollowingRetryAfter } from './retries/retry-middleware';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retries/retry-policy';
import type { AccessTokenSource, TokenTiming } from './tokens/access-token-source';
import { authMiddleware } from './tokens/auth-middleware';
import {
  ClientCredentialsTokenSource,
  type ClientCredentials,
} from './tokens/client-credentials-token-source';
import { RefreshTokenSource, type RefreshTokenLogin } from './tokens/refresh-token-source';
import {
  subscribeToChanges,
  type ChangeSubscription,
  type ChangeSubscriptionOptions,
  type MainApiChangeEvent,
  type PlannerChangeEvent,
} from './events/change-subscription';
import { verifyWebhook } from './webhooks/verify-webhook';

/** How the SDK gets its bearer: an API client's credentials, a login's refresh token, or your own source. */
export type PlatformAuth = ClientCredentials | RefreshTokenLogin | AccessTokenSource;

export interface PlatformSdkOptions {
  /** main-api's base URL, without `/v1` (the paths carry it): e.g. https://api.agency.example */
  mainApiUrl: string;
  plannerUrl: string;
  integrationsUrl: string;
  auth: PlatformAuth;
  /** Retries on 429/503 after Retry-After (DEFAULT_RETRY_POLICY), or false for none. */
  retry?: Partial<RetryPolicy> | false;
  tokenTiming?: TokenTiming;
}

export interface PlatformSdk {
  /** openapi-fetch clients typed by the services' OpenAPI documents, with auth and retries. */
  mainApi: MainApiClient;
  planner: PlannerClient;
  integrations: IntegrationsClient;
  /** The token source every client uses (one token is valid on all three services). */
  tokens: AccessTokenSource;
  cursorItems: typeof cursorItems;
  cursorPages: typeof cursorPages;
  readTagged: typeof readTagged;
  writeIfMatch: typeof writeIfMatch;
  verifyWebhook: typeof verifyWebhook;
  /** Live change events of main-api or the planner (Server-Sent Events; a browser's EventSource by default). */
  subscribe: {
    mainApi(options: ChangeSubscriptionOptions<MainApiChangeEvent>): Promise<ChangeSubscription>;
    planner(options: ChangeSubscriptionOptions<PlannerChangeEvent>): Promise<ChangeSubscription>;
  };
}

/**
 * The three services' typed clients, sharing one token source: each request gets the bearer (a new
 * one shortly before expiry, and once more after a 401), and a repeatable request answered 429 or
 * 503 is sent again after its Retry-After.
 */
export function createPlatformSdk(options: PlatformSdkOptions): PlatformSdk {
  const tokens = tokenSourceFor(options);
  const retry = options.retry === false ? undefined : { ...DEFAULT_RETRY_POLICY, ...options.retry };
  // Auth before retries: openapi-fetch runs onRequest in order (the retry's copy then carries the
  // bearer) and onResponse in reverse (a 401 after retries gets one new token).
  const middleware =
    retry === undefined
      ? [authMiddleware(tokens)]
      : [authMiddleware(tokens, sendFollowingRetryAfter(retry)), retryMiddleware(retry)];
  const mainApi = createMainApiClient(options.mainApiUrl);
  const planner = createPlannerClient(options.plannerUrl);
  const integrations = createIntegrationsClient(options.integrationsUrl);
  for (const client of [mainApi, planner, integrations]) {
    client.use(...middleware);
  }
  return {
    mainApi,
    planner,
    integrations,
    tokens,
    cursorItems,
    cursorPages,
    readTagged,
    writeIfMatch,
    verifyWebhook,
    subscribe: {
      mainApi: (subscription) =>
        subscribeToChanges(
          { baseUrl: options.mainApiUrl, ticketPath: '/v1/events/stream-tickets' },
          tokens,
          subscription,
        ),
      planner: (subscription) =>
        subscribeToChanges(
          { baseUrl: options.plannerUrl, ticketPath: '/v2/events/stream-tickets' },
          tokens,
          subscription,
        ),
    },
  };
}

function tokenSourceFor({ auth, mainApiUrl, tokenTiming }: PlatformSdkOptions): AccessTokenSource {
  if (isTokenSource(auth)) {
    return auth;
  }
  if ('refreshToken' in auth) {
    return new RefreshTokenSource(mainApiUrl, auth, tokenTiming);
  }
  return new ClientCredentialsTokenSource(mainApiUrl, auth, tokenTiming);
}

function isTokenSource(auth: PlatformAuth): auth is AccessTokenSource {
  return 'accessToken' in auth && typeof auth.accessToken === 'function';
}
