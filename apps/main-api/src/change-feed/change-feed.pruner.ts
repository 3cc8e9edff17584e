import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';

// pg_try_advisory_xact_lock key: one replica prunes at a time, the others skip that round.
const PRUNE_LOCK = 7302;

/**
 * Removes change events older than EVENTS_RETENTION_DAYS every EVENTS_PRUNE_INTERVAL_MS, and
 * remembers per company the highest cursor removed, so a consumer that fell behind is told (410)
 * rather than silently skipping events.
 */
@Injectable()
export class ChangeFeedPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeedPruner');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.prune().catch((error: unknown) =>
        this.logger.warn(
          `change feed pruning failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }, this.env.EVENTS_PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Answers how many events were removed (0 when another replica holds the pruning lock). */
  async prune(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query<{ locked: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock($1) AS locked',
        [PRUNE_LOCK],
      );
      if (!locked) {
        return 0;
      }
      const [{ removed }] = await manager.query<{ removed: string }[]>(
        `WITH removed AS (
           DELETE FROM change_events WHERE occurred_at < now() - make_interval(days => $1)
           RETURNING company_id, "cursor"
         ), marked AS (
           INSERT INTO change_feed_watermarks (company_id, pruned_through)
           SELECT company_id, max("cursor") FROM removed GROUP BY company_id
           ON CONFLICT (company_id) DO UPDATE
             SET pruned_through = greatest(change_feed_watermarks.pruned_through, EXCLUDED.pruned_through)
         )
         SELECT count(*) AS removed FROM removed`,
        [this.env.EVENTS_RETENTION_DAYS],
      );
      const count = Number(removed);
      if (count > 0) {
        this.logger.log(
          `change feed: removed ${count} events older than ${this.env.EVENTS_RETENTION_DAYS} days`,
        );
      }
      return count;
    });
  }
}
