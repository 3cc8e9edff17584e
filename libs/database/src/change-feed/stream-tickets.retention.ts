import type { RetentionPolicy } from '../retention/retention-policy';

/**
 * A change-stream ticket whose token has expired opens nothing more (the claim refuses it), and the
 * planner's keeps a sealed token: it goes with the next run, in every service that serves a stream.
 */
export const streamTicketRetention: RetentionPolicy = {
  table: 'event_stream_tickets',
  expired: 'token_expires_at < now()',
  keptFor: "until its token's expiry",
};
