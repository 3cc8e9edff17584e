import type { RetentionPolicy } from '@platform/database';

/**
 * How long a login's tokens outlive its absolute end: the longest access-token lifetime the settings
 * allow (ACCESS_TOKEN_TTL_SECONDS at most 86400), so a lowered setting cannot shorten it. An access
 * token issued at the last rotation stays checkable against its family's revocation until it expires.
 */
const KEPT_AFTER_LOGIN_ENDS_SECONDS = 86400;

/**
 * A refresh token is removed once its login (family) has ended, whatever its state: used, revoked or
 * never used. Never earlier: a spent token is what reuse detection recognises, and the family's
 * revoked rows are what ends its access tokens (`sid`), so the whole family stays until no token of
 * it can be used, plus a day for the access tokens issued last.
 */
export const refreshTokenRetention: RetentionPolicy = {
  table: 'refresh_tokens',
  expired: 'family_expires_at < now() - make_interval(secs => $1)',
  parameters: [KEPT_AFTER_LOGIN_ENDS_SECONDS],
  keptFor: 'until a day after the login ends (REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS)',
};
