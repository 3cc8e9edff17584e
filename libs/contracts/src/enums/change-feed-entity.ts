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
] as const;

export const CHANGE_FEED_ENTITIES: readonly string[] = [
  ...INTEGRATION_ENTITIES,
  ...CHANGE_FEED_ONLY_ENTITIES,
];

export type ChangeFeedEntity =
  (typeof INTEGRATION_ENTITIES)[number] | (typeof CHANGE_FEED_ONLY_ENTITIES)[number];
