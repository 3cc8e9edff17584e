import { changeFeedRetention, streamTicketRetention, type RetentionSettings } from '@platform/database';

import type { MainApiEnv } from '../config/main-api.env';
import { idempotencyRetention } from '../idempotency/idempotency.retention';
import { authorizationCodeRetention } from '../oauth/authorization/authorization-codes.retention';
import { rateLimitRetention } from '../oauth/rate-limit/rate-limit.retention';
import { refreshTokenRetention } from '../oauth/refresh-tokens/refresh-tokens.retention';

/**
 * Every main-api table that grows with traffic rather than with the companies' own data, and how
 * long it keeps its rows; each policy sits beside the feature whose rule it is.
 */
export function mainApiRetention(env: MainApiEnv): RetentionSettings {
  return {
    intervalSeconds: env.RETENTION_INTERVAL_SECONDS,
    policies: [
      idempotencyRetention,
      refreshTokenRetention,
      rateLimitRetention,
      authorizationCodeRetention,
      changeFeedRetention(env.EVENTS_RETENTION_DAYS),
      streamTicketRetention,
    ],
  };
}
