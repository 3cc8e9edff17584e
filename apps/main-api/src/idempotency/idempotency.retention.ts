import type { RetentionPolicy } from '@platform/database';
import { IDEMPOTENCY_KEY_TTL_HOURS } from './idempotency.repository';

/** A stored answer is no use once its key may be reused: it goes when the 24 hours are over. */
export const idempotencyRetention: RetentionPolicy = {
  table: 'idempotency_records',
  expired: 'created_at < now() - make_interval(hours => $1)',
  parameters: [IDEMPOTENCY_KEY_TTL_HOURS],
  keptFor: `${IDEMPOTENCY_KEY_TTL_HOURS} hours`,
};
