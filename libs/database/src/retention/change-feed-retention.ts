import type { RetentionPolicy } from './retention-policy';

/**
 * A service's change feed (its `change_events` and `change_feed_watermarks`, main-api's and the
 * planner's alike): events older than EVENTS_RETENTION_DAYS go; with each batch the highest cursor removed per
 * company is remembered, in the same statement, so a consumer that fell behind is told (410)
 * rather than silently skipping events.
 */
export function changeFeedRetention(retentionDays: number): RetentionPolicy {
  return {
    table: 'change_events',
    expired: 'occurred_at < now() - make_interval(days => $1)',
    parameters: [retentionDays],
    keptFor: `${retentionDays} days (EVENTS_RETENTION_DAYS)`,
    alsoRecord: {
      returning: 'company_id, "cursor"',
      statement: `INSERT INTO change_feed_watermarks (company_id, pruned_through)
        SELECT company_id, max("cursor") FROM removed GROUP BY company_id
        ON CONFLICT (company_id) DO UPDATE
          SET pruned_through = greatest(change_feed_watermarks.pruned_through, EXCLUDED.pruned_through)`,
    },
  };
}
