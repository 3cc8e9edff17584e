import { Injectable } from '@nestjs/common';
import { RequestTenantScope, TenantScopes, type TenantRepository } from '@platform/database';
import { MoreThan } from 'typeorm';
import { ChangeEvent } from './change-event.entity';
import type { ChangeFeedWatchDto } from './dto/change-feed-watch.dto';

/** The change feed's statements: a company's events in cursor order, and the watch across companies. */
@Injectable()
export class ChangeFeedRepository {
  private readonly events: TenantRepository<ChangeEvent>;

  constructor(
    private readonly scope: RequestTenantScope,
    private readonly scopes: TenantScopes,
  ) {
    this.events = scope.repository(ChangeEvent);
  }

  /** The request's company's events after `after`, at most `limit`, in cursor order. */
  eventsAfter(after: string, limit: number): Promise<ChangeEvent[]> {
    return this.events.find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take: limit });
  }

  /** The last cursor the retention pruner removed from the company's feed, if it pruned any. */
  async prunedThrough(): Promise<string | undefined> {
    const [watermark] = await this.scope.sql.select<{ pruned_through: string }>(
      'SELECT pruned_through::text AS pruned_through FROM change_feed_watermarks WHERE company_id = $1',
      [this.scope.companyId()],
    );
    return watermark?.pruned_through;
  }

  /**
   * Which companies have events in transactions the snapshot `after` did not see, and the current
   * snapshot as the next position, in one statement, so the position answered is the snapshot the
   * companies were read with (ChangeFeedWatchService explains why a snapshot). `reset` when there
   * is no position, or it is from the future (a restored or replaced database).
   */
  async changedSince(after: string | undefined): Promise<ChangeFeedWatchDto> {
    const [answer] = await this.scopes.acrossCompanies('feed-watch').sql.select<ChangeFeedWatchDto>(
      `SELECT pg_current_snapshot()::text AS position,
              coalesce(pg_snapshot_xmax($1::pg_snapshot) > pg_snapshot_xmax(pg_current_snapshot()), true) AS reset,
              ARRAY(SELECT DISTINCT company_id FROM change_events
                     WHERE transaction_id >= pg_snapshot_xmin($1::pg_snapshot)::text::bigint
                       AND NOT pg_visible_in_snapshot(transaction_id::text::xid8, $1::pg_snapshot)
                     ORDER BY company_id) AS companies`,
      [after ?? null],
    );
    if (!answer) {
      throw new Error('the change feed watch read answered no row');
    }
    return answer;
  }
}
