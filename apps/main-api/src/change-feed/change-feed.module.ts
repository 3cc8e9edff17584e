import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedPruner } from './change-feed.pruner';
import { ChangeFeedService } from './change-feed.service';
import { ChangeOriginBinding, ChangeOriginInterceptor } from './change-origin';

@Module({
  controllers: [ChangeFeedController],
  providers: [
    ChangeFeedService,
    ChangeFeedPruner,
    ChangeOriginBinding,
    { provide: APP_INTERCEPTOR, useClass: ChangeOriginInterceptor },
  ],
})
export class ChangeFeedModule {}
