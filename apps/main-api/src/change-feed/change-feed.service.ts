import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import { ChangeEvent } from './change-event.entity';
import { CursorExpiredError } from './change-feed.errors';
import { ChangeEventDto, type ChangeFeedPageDto, type ChangeFeedQueryDto } from './dto/change-feed.dto';

/** The company's change feed, read in cursor order (the events are written by database triggers). */
@Injectable()
export class ChangeFeedService {
  private readonly events: TenantRepository<ChangeEvent>;

  constructor(private readonly scope: RequestTenantScope) {
    this.events = scope.repository(ChangeEvent);
  }

  async page({ after, limit }: ChangeFeedQueryDto): Promise<ChangeFeedPageDto> {
    const events = await this.events.many(
      this.events
        .queryBuilder('event')
        .andWhere('event.id > :after', { after })
        .orderBy('event.id', 'ASC')
        .limit(limit),
    );
    // Read after the events, never beside them: a prune that committed before the events were read
    // is then always seen here, so its gap cannot go unreported.
    const [watermark] = await this.scope.sql.select<{ pruned_through: string }>(
      'SELECT pruned_through::text AS pruned_through FROM change_feed_watermarks WHERE company_id = $1',
      [this.scope.companyId()],
    );
    // A consumer behind the retention window would silently miss what was pruned: tell it instead.
    if (after !== '0' && watermark && BigInt(after) < BigInt(watermark.pruned_through)) {
      throw new CursorExpiredError(watermark.pruned_through);
    }
    return {
      data: events.map((event) => ChangeEventDto.from(event)),
      next_cursor: events.at(-1)?.id ?? after,
    };
  }
}
