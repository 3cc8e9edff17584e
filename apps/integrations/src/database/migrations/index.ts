import { InitialSchema1795356275054 } from './1795356275054-InitialSchema';
import { MappingLeasesAndGenerations1795433631921 } from './1795433631921-MappingLeasesAndGenerations';
import { AddWebhooks1795433976556 } from './1795433976556-AddWebhooks';
import { AddSubscriptions1795441566399 } from './1795441566399-AddSubscriptions';
import { FairDeliveryClaims1795600000100 } from './1795600000100-FairDeliveryClaims';
import { WebhookSignatureReplayGuard1795600000200 } from './1795600000200-WebhookSignatureReplayGuard';
import { RetentionIndexes1795600000400 } from './1795600000400-RetentionIndexes';
import { RowLevelSecurity1795800000200 } from './1795800000200-RowLevelSecurity';
import { SubscriptionsToEveryEntity1796000000300 } from './1796000000300-SubscriptionsToEveryEntity';
import { FollowPlannerFeed1796000000800 } from './1796000000800-FollowPlannerFeed';
import { SubscriptionsToHolidayCalendars1796000001200 } from './1796000001200-SubscriptionsToHolidayCalendars';
import { SubscriptionsToPlaceholders1796000002100 } from './1796000002100-SubscriptionsToPlaceholders';
import { SubscriptionsToScenarios1796000002300 } from './1796000002300-SubscriptionsToScenarios';
import { SubscriptionFilters1796000000500 } from './1796000000500-SubscriptionFilters';

// Listed explicitly (no globs), in order: what runs in production is exactly what is reviewed here.
export const INTEGRATIONS_MIGRATIONS = [
  InitialSchema1795356275054,
  MappingLeasesAndGenerations1795433631921,
  AddWebhooks1795433976556,
  AddSubscriptions1795441566399,
  FairDeliveryClaims1795600000100,
  WebhookSignatureReplayGuard1795600000200,
  RetentionIndexes1795600000400,
  RowLevelSecurity1795800000200,
  SubscriptionsToEveryEntity1796000000300,
  SubscriptionFilters1796000000500,
  FollowPlannerFeed1796000000800,
  SubscriptionsToHolidayCalendars1796000001200,
  SubscriptionsToPlaceholders1796000002100,
  SubscriptionsToScenarios1796000002300,
];
