import { Module } from '@nestjs/common';
import { changeFeedWatchProviders } from '@platform/database';
import { PLANNER_ENV, type PlannerEnv } from '../config/planner.env';
import { PLANNER_CHANGE_EVENTS_CHANNEL } from '../database/migrations/1796000000700-ChangeFeedWatch';
import { ChangeFeedController } from './change-feed.controller';
import { ChangeFeedRepository } from './change-feed.repository';
import { ChangeFeedService } from './change-feed.service';
import { EventStreamsController } from './stream/event-streams.controller';
import { EventStreamsService } from './stream/event-streams.service';
import { StreamTicketsRepository } from './stream/stream-tickets.repository';
import { IntegrationsServiceGuard } from './watch/integrations-service.guard';

@Module({
  controllers: [ChangeFeedController, EventStreamsController],
  providers: [
    ChangeFeedService,
    ChangeFeedRepository,
    StreamTicketsRepository,
    EventStreamsService,
    ...changeFeedWatchProviders(PLANNER_ENV, (env: PlannerEnv) => ({
      connectionString: env.DATABASE_LISTEN_URL ?? env.DATABASE_URL,
      channel: PLANNER_CHANGE_EVENTS_CHANNEL,
      applicationName: 'planner-change-feed-listener',
    })),
    IntegrationsServiceGuard,
  ],
})
export class ChangeFeedModule {}
