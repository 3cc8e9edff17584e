import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedRepository } from './change-feed.repository';
import { ChangeFeedService } from './change-feed.service';
import { ChangeOriginGuard } from './change-origin';
import { ChangeFeedListener } from './watch/change-feed-listener';
import { ChangeFeedWatchService } from './watch/change-feed-watch.service';
import { IntegrationsServiceGuard } from './watch/integrations-service.guard';

@Module({
  controllers: [ChangeFeedController],
  providers: [
    ChangeFeedRepository,
    ChangeFeedService,
    ChangeFeedListener,
    ChangeFeedWatchService,
    IntegrationsServiceGuard,
    { provide: APP_GUARD, useClass: ChangeOriginGuard },
  ],
})
export class ChangeFeedModule {}
