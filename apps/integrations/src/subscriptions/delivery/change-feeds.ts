import { Logger, type Provider } from '@nestjs/common';
import { CHANGE_FEED_ENTITIES, PLANNER_FEED_ENTITIES } from '@platform/contracts';
import { MainApiClient } from '@platform/main-api-client';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../../config/integrations.env';
import type { ChangeFeedName } from '../change-feed-name';

/** A service's change feed as integrations follows it. */
export interface ChangeFeed {
  name: ChangeFeedName;
  /** The service's client: main-api's, or one of the same kind pointed at the planner. */
  client: MainApiClient;
  /** A company's events, read with a subscription's API client. */
  eventsPath: string;
  /** Which companies have new events (signed as the integrations service; a long poll). */
  watchPath: string;
  /** The entity kinds the feed carries: a subscription naming none of them does not need it. */
  entities: readonly string[];
}

/** The feeds this replica follows: main-api's always, the planner's when PLANNER_URL is set. */
export const CHANGE_FEEDS = Symbol('CHANGE_FEEDS');

export const changeFeedsProvider: Provider = {
  provide: CHANGE_FEEDS,
  inject: [MainApiClient, INTEGRATIONS_ENV],
  useFactory: (mainApi: MainApiClient, env: IntegrationsEnv): ChangeFeed[] => {
    const feeds: ChangeFeed[] = [
      {
        name: 'main-api',
        client: mainApi,
        eventsPath: '/v1/events',
        watchPath: '/v1/events/watch',
        entities: CHANGE_FEED_ENTITIES,
      },
    ];
    if (env.PLANNER_URL === undefined) {
      new Logger('ChangeFeeds').warn(
        'PLANNER_URL is not set: subscriptions to allocations get no events until it is',
      );
      return feeds;
    }
    feeds.push({
      name: 'planner',
      // Its own breaker: the planner failing must not make main-api's calls fail fast, nor the reverse.
      client: new MainApiClient({
        baseUrl: env.PLANNER_URL,
        timeoutMs: env.MAIN_API_TIMEOUT_MS,
        circuitBreaker: {
          failureThreshold: env.MAIN_API_BREAKER_THRESHOLD,
          cooldownMs: env.MAIN_API_BREAKER_COOLDOWN_MS,
        },
        upstream: 'planner',
      }),
      eventsPath: '/v2/events',
      watchPath: '/v2/events/watch',
      entities: PLANNER_FEED_ENTITIES,
    });
    return feeds;
  },
};
