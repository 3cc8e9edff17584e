import type { ThrottlerStorage } from '@nestjs/throttler';
import type { DataSource } from 'typeorm';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * @nestjs/throttler storage shared by all replicas: one atomic upsert per hit counts within a fixed
 * window and restarts the window once it has passed.
 */
export class PostgresThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly dataSource: DataSource) {}

  async increment(
    key: string,
    ttlMs: number,
    limit: number,
    blockDurationMs: number,
  ): Promise<ThrottlerStorageRecord> {
    const windowMs = Math.max(ttlMs, blockDurationMs);
    const [row] = await this.dataSource.query<{ hits: number; ms_left: string }[]>(
      `INSERT INTO rate_limit_buckets (key, window_ends_at, hits)
       VALUES ($1, now() + make_interval(secs => $2::double precision / 1000), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limit_buckets.window_ends_at <= now() THEN 1 ELSE rate_limit_buckets.hits + 1 END,
         window_ends_at = CASE WHEN rate_limit_buckets.window_ends_at <= now()
                               THEN EXCLUDED.window_ends_at ELSE rate_limit_buckets.window_ends_at END
       RETURNING hits, extract(epoch FROM window_ends_at - now()) * 1000 AS ms_left`,
      [key, windowMs],
    );
    if (Math.random() < 0.01) {
      // Opportunistic clean-up of long-expired windows; no job to schedule.
      await this.dataSource.query(
        "DELETE FROM rate_limit_buckets WHERE window_ends_at < now() - interval '1 hour'",
      );
    }
    const secondsLeft = Math.max(1, Math.ceil(Number(row.ms_left) / 1000));
    const isBlocked = row.hits > limit;
    return {
      totalHits: row.hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }
}
