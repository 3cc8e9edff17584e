import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import { MoreThan } from 'typeorm';
import { ChangeEvent } from './change-event.entity';

/** The change feed's statements: the request's company's events in cursor order, and its watermark. */
@Injectable()
export class ChangeFeedRepository {
  private readonly events: TenantRepository<ChangeEvent>;

  constructor(private readonly scope: RequestTenantScope) {
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
}
