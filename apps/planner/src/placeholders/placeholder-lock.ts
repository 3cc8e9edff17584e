/**
 * The advisory lock of one placeholder, as SQL taking the company ($1) and placeholder ids
 * ($2::uuid[]): every writer of a placeholder's bookings, and its deletion, take it in their
 * transaction, so they run one after the other (in key order: two writers of the same two
 * placeholders cannot deadlock). One bigint, hashed from the company and the id: a person's lock is
 * `(company << 32) | user` in the same key space, and a collision would only make two writers wait.
 */
export const LOCK_PLACEHOLDERS_SQL = `SELECT pg_advisory_xact_lock(key)
  FROM (SELECT DISTINCT hashtextextended('placeholder:' || $1::integer || ':' || id::text, 0) AS key
          FROM unnest($2::uuid[]) AS id) keys
 ORDER BY key`;
