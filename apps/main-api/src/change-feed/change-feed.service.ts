import { Injectable } from '@nestjs/common';
import { CursorExpiredError } from './change-feed.errors';
import { ChangeFeedRepository } from './change-feed.repository';
import type { ChangeFeedQueryDto } from '@platform/contracts';
import { ChangeEventDto, type ChangeFeedPageDto } from './dto/change-feed.dto';

/** The company's change feed, read in cursor order (the events are written by database triggers). */
@Injectable()
export class ChangeFeedService {
  constructor(private readonly feed: ChangeFeedRepository) {}

  async page({ after, limit }: ChangeFeedQueryDto): Promise<ChangeFeedPageDto> {
    const events = await this.feed.eventsAfter(after, limit);
    // Read after the events, never beside them: a prune that committed before the events were read
    // is then always seen here, so its gap cannot go unreported.
    const prunedThrough = await this.feed.prunedThrough();
    // A consumer behind the retention window would silently miss what was pruned: tell it instead.
    if (after !== '0' && prunedThrough !== undefined && BigInt(after) < BigInt(prunedThrough)) {
      throw new CursorExpiredError(prunedThrough);
    }
    return {
      data: events.map((event) => ChangeEventDto.from(event)),
      next_cursor: events.at(-1)?.id ?? after,
    };
  }
}
