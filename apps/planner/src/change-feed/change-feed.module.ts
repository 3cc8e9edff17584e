import { Module } from '@nestjs/common';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedRepository } from './change-feed.repository';
import { ChangeFeedService } from './change-feed.service';

@Module({
  controllers: [ChangeFeedController],
  providers: [ChangeFeedService, ChangeFeedRepository],
})
export class ChangeFeedModule {}
