import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedService } from './change-feed.service';
import { ChangeOriginGuard } from './change-origin';

@Module({
  controllers: [ChangeFeedController],
  providers: [ChangeFeedService, { provide: APP_GUARD, useClass: ChangeOriginGuard }],
})
export class ChangeFeedModule {}
