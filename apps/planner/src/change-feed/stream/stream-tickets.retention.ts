import type { RetentionPolicy } from '@platform/database';

/**
 * A ticket whose token has expired opens nothing more (the claim refuses it), and it keeps a sealed
 * token: it goes with the next run.
 */
export const streamTicketRetention: RetentionPolicy = {
  table: 'event_stream_tickets',
  expired: 'token_expires_at < now()',
  keptFor: "until its token's expiry",
};
