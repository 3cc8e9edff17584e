import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { EntitiesModule } from '../entities/entities.module';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveriesService } from './deliveries.service';
import { DeliveryAttempts } from './delivery/delivery-attempts';
import { DeliveryMetrics } from './delivery/delivery-metrics';
import { DeliveryWorker } from './delivery/delivery.worker';
import { FeedFollower } from './delivery/feed-follower';
import { feedWatchersProvider } from './delivery/feed-watcher';
import { changeFeedsProvider } from './delivery/change-feeds';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsService } from './subscriptions.service';
import { TARGET_POLICY_PROVIDER } from './target-policy.provider';

/** Outbound webhooks: subscriptions, their delivery log, and the worker that follows the feed and delivers. */
@Module({
  imports: [EntitiesModule, CredentialsModule],
  controllers: [SubscriptionsController, DeliveriesController],
  providers: [
    SubscriptionsService,
    SubscriptionsRepository,
    DeliveriesService,
    DeliveriesRepository,
    TARGET_POLICY_PROVIDER,
    FeedFollower,
    changeFeedsProvider,
    feedWatchersProvider,
    DeliveryAttempts,
    DeliveryMetrics,
    DeliveryWorker,
  ],
})
export class SubscriptionsModule {}
