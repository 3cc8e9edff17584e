import { INTEGRATION_ENTITIES } from './integration-entity.enum';

/**
 * The entity kinds main-api's change feed and the outbound webhooks name: the integration kinds
 * (written by external id through the integrations service) and, since issue 36, every other kind,
 * each named as its main-api route is. Each has a `record_change` trigger (change-feed-coverage test).
 */
export const CHANGE_FEED_ONLY_ENTITIES = [
  'tasks',
  'hours',
  'fees',
  'transactions',
  'project-costs',
  'project-estimates',
  'ratecards',
  'labels',
  'products',
  'holiday-calendars',
] as const;

export const CHANGE_FEED_ENTITIES: readonly string[] = [
  ...INTEGRATION_ENTITIES,
  ...CHANGE_FEED_ONLY_ENTITIES,
];

export type ChangeFeedEntity =
  (typeof INTEGRATION_ENTITIES)[number] | (typeof CHANGE_FEED_ONLY_ENTITIES)[number];

/**
 * The entity kinds of the planner's change feed (`GET /v2/events`); placeholders and scenarios
 * (applied ones: a scenario's drafts are no events) since issue 39.
 */
export const PLANNER_FEED_ENTITIES = ['allocations', 'placeholders', 'scenarios'] as const;
export type PlannerFeedEntity = (typeof PLANNER_FEED_ENTITIES)[number];

/**
 * What an outbound webhook subscription may name: main-api's kinds and the planner's, whose feeds
 * integrations follows both.
 */
export const SUBSCRIPTION_ENTITIES: readonly string[] = [...CHANGE_FEED_ENTITIES, ...PLANNER_FEED_ENTITIES];
export type SubscriptionEntity = ChangeFeedEntity | PlannerFeedEntity;
