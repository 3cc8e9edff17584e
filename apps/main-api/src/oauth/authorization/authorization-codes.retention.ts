import type { RetentionPolicy } from '@platform/database';

/**
 * A code is kept a day past its 60 s so a late replay is still recognised as a reuse, and as long as
 * the login it started has refresh tokens: the row is what binds that login to its app.
 */
export const authorizationCodeRetention: RetentionPolicy = {
  table: 'authorization_codes',
  expired: `expires_at < now() - make_interval(secs => $1)
    AND (family_id IS NULL
         OR NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = authorization_codes.family_id))`,
  parameters: [86400],
  keptFor: 'a day, and while the login it started has refresh tokens',
};
