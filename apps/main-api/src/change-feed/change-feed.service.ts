import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { DataSource } from 'typeorm';
import { ChangeEvent, ChangeFeedWatermark } from './change-event.entity';
import { CursorExpiredError } from './change-feed.errors';
import { ChangeEventDto, type ChangeFeedPageDto, type ChangeFeedQueryDto } from './dto/change-feed.dto';

/** The company's change feed, read in cursor order (the events are written by database triggers). */
@Injectable()
export class ChangeFeedService {
  private readonly events: TenantRepository<ChangeEvent>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
    private readonly dataSource: DataSource,
  ) {
    this.events = repositories.for(ChangeEvent);
  }

  async page({ after, limit }: ChangeFeedQueryDto): Promise<ChangeFeedPageDto> {
    const events = await this.events
      .queryBuilder('event')
      .andWhere('event.id > :after', { after })
      .orderBy('event.id', 'ASC')
      .limit(limit)
      .getMany();
    // Read after the events, never beside them: a prune that committed before the events were read
    // is then always seen here, so its gap cannot go unreported.
    const watermark = await this.dataSource
      .getRepository(ChangeFeedWatermark)
      .findOneBy({ companyId: this.principals.companyId() });
    // A consumer behind the retention window would silently miss what was pruned: tell it instead.
    if (after !== '0' && watermark && BigInt(after) < BigInt(watermark.prunedThrough)) {
      throw new CursorExpiredError(watermark.prunedThrough);
    }
    return {
      data: events.map((event) => ChangeEventDto.from(event)),
      next_cursor: events.at(-1)?.id ?? after,
    };
  }
}
