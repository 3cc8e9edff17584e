import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { changeFeedWatchProviders } from '@platform/database';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';
import { CHANGE_EVENTS_CHANNEL } from '../database/migrations/1795900000100-ChangeFeedWatch';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedRepository } from './change-feed.repository';
import { ChangeFeedService } from './change-feed.service';
import { ChangeOriginGuard } from './change-origin';
import { IntegrationsServiceGuard } from './watch/integrations-service.guard';
import { EventStreamsController } from './stream/event-streams.controller';
import { EventStreamsService } from './stream/event-streams.service';
import { StreamTicketsRepository } from './stream/stream-tickets.repository';

@Module({
  controllers: [ChangeFeedController, EventStreamsController],
  providers: [
    ChangeFeedRepository,
    ChangeFeedService,
    StreamTicketsRepository,
    EventStreamsService,
    ...changeFeedWatchProviders(MAIN_API_ENV, (env: MainApiEnv) => ({
      connectionString: env.DATABASE_LISTEN_URL ?? env.DATABASE_URL,
      channel: CHANGE_EVENTS_CHANNEL,
      applicationName: 'main-api-change-feed-listener',
    })),
    IntegrationsServiceGuard,
    { provide: APP_GUARD, useClass: ChangeOriginGuard },
  ],
})
export class ChangeFeedModule {}
