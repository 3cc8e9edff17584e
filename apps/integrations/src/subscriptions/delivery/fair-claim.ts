/** The advisory lock (hashtext of this name) that orders claims across replicas. */
export const CLAIM_LOCK = 'integrations:webhook-delivery-claims';

/** The host name of a subscription's URL (stored normalized: lower case, no credentials), port left out. */
const hostOf = (url: string) => `substring(${url} from '^[a-z][a-z0-9+.-]*://(\\[[^]]*\\]|[^/?#:]+)')`;

/**
 * A company's oldest due deliveries a claim looks at, to pass over those to hosts at their cap: a
 * bound on the work of every claim, however large a backlog (and however many of its hosts are full).
 */
const LOOKAHEAD = 32;

/**
 * Takes up to $1 due deliveries and leases them for $2 seconds, fairly: each company with room
 * (fewer than $3 attempts under way) offers its oldest due deliveries, as many as it has room for,
 * and they are taken in turns (every company's oldest first, then every company's second...), so
 * one company's backlog cannot fill the slots. Hosts with $4 attempts under way are passed over
 * (among the company's LOOKAHEAD oldest), and a host gets no more than its room either, in turns
 * too. "Under way" is an attempt not finished whose delivery is still leased: a worker that died
 * leaves an open attempt, but its lease runs out.
 *
 * Window functions cannot go with FOR UPDATE, hence the shape: the choice is made first, without
 * locks, then the rows chosen are locked (SKIP LOCKED) and checked again.
 */
export const FAIR_CLAIM_SQL = `
  WITH in_flight AS (
    SELECT leased.company_id, ${hostOf('target.url')} AS host
      FROM webhook_delivery_attempts running
      JOIN webhook_deliveries leased ON leased.id = running.delivery_id
      JOIN webhook_subscriptions target ON target.id = leased.subscription_id
     WHERE running.finished_at IS NULL AND leased.status = 'pending' AND leased.next_attempt_at > now()
  ), company_room AS (
    SELECT company.company_id, $3 - count(in_flight.company_id) AS room
      FROM (SELECT DISTINCT company_id FROM webhook_subscriptions WHERE status = 'active') company
      LEFT JOIN in_flight ON in_flight.company_id = company.company_id
     GROUP BY company.company_id
    HAVING count(in_flight.company_id) < $3
  ), host_busy AS (
    SELECT host, count(*) AS busy FROM in_flight GROUP BY host
  ), offered AS (
    SELECT due.id, due.next_attempt_at, due.host,
           row_number() OVER (PARTITION BY due.company_id ORDER BY due.next_attempt_at, due.id) AS company_turn
      FROM company_room
     CROSS JOIN LATERAL (
           SELECT oldest.* FROM (
                  SELECT pending.id, pending.company_id, pending.next_attempt_at, ${hostOf('active.url')} AS host
                    FROM webhook_deliveries pending
                    JOIN webhook_subscriptions active
                      ON active.id = pending.subscription_id AND active.status = 'active'
                   WHERE pending.company_id = company_room.company_id
                     AND pending.status = 'pending' AND pending.next_attempt_at <= now()
                   ORDER BY pending.next_attempt_at, pending.id
                   LIMIT ${LOOKAHEAD}) oldest
            WHERE NOT EXISTS (SELECT 1 FROM host_busy full_host
                               WHERE full_host.host = oldest.host AND full_host.busy >= $4)
            ORDER BY oldest.next_attempt_at, oldest.id
            LIMIT company_room.room) due
  ), host_ranked AS (
    -- A host's room goes to the companies in turns too.
    SELECT offered.*,
           row_number() OVER (PARTITION BY offered.host
                              ORDER BY offered.company_turn, offered.next_attempt_at, offered.id) AS host_turn
      FROM offered
  ), chosen AS (
    SELECT host_ranked.id FROM host_ranked
      LEFT JOIN host_busy ON host_busy.host = host_ranked.host
     WHERE host_ranked.host_turn <= $4 - COALESCE(host_busy.busy, 0)
     ORDER BY host_ranked.company_turn, host_ranked.next_attempt_at, host_ranked.id
     LIMIT $1
  ), locked AS (
    -- Rechecked on the row locked: a replay or an outcome may have changed it meanwhile.
    SELECT due.id FROM webhook_deliveries due
     WHERE due.id IN (SELECT id FROM chosen) AND due.status = 'pending' AND due.next_attempt_at <= now()
       FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries delivery
     SET attempts = delivery.attempts + 1,
         next_attempt_at = now() + make_interval(secs => $2),
         last_attempt_at = now(),
         updated_at = now()
    FROM webhook_subscriptions subscription
   WHERE delivery.id IN (SELECT id FROM locked)
     AND subscription.id = delivery.subscription_id
  RETURNING delivery.id, delivery.company_id, delivery.subscription_id, delivery.attempts,
            delivery.payload::text AS payload, subscription.url, subscription.signing_secret_sealed`;
