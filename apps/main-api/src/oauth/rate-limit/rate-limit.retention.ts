import type { RetentionPolicy } from '@platform/database';

/**
 * A failure window that closed an hour ago counts nothing any more: a back-off lasts at most one
 * window (TOKEN_RATE_LIMIT_WINDOW_SECONDS, 3600 at most), and the next failure starts a new window.
 */
export const rateLimitRetention: RetentionPolicy = {
  table: 'rate_limit_buckets',
  expired: "window_ends_at < now() - interval '1 hour'",
  keptFor: 'an hour after the window closes',
};
