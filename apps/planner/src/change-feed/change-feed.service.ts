import { Injectable } from '@nestjs/common';
import { cursorExpired } from './change-feed.errors';
import { ChangeFeedRepository } from './change-feed.repository';
import type { ChangeFeedQueryDto } from '@platform/contracts';
import { ChangeEventDto, type ChangeFeedPageDto } from './dto/change-feed.dto';

/** The company's planner feed, read in cursor order (the events are written by a database trigger). */
@Injectable()
export class ChangeFeedService {
  constructor(private readonly feed: ChangeFeedRepository) {}

  async page({ after, limit }: ChangeFeedQueryDto): Promise<ChangeFeedPageDto> {
    const events = await this.feed.eventsAfter(after, limit);
    // Read after the events, never beside them: a prune that committed before the events were read
    // is then always seen here, so its gap cannot go unreported.
    const prunedThrough = await this.feed.prunedThrough();
    if (after !== '0' && prunedThrough !== undefined && BigInt(after) < BigInt(prunedThrough)) {
      throw cursorExpired(prunedThrough);
    }
    return {
      data: events.map((event) => ChangeEventDto.from(event)),
      next_cursor: events.at(-1)?.id ?? after,
    };
  }
}
