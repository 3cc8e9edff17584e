/** The change feeds integrations follows: main-api's (`GET /v1/events`) and the planner's (`GET /v2/events`). */
export const CHANGE_FEED_NAMES = ['main-api', 'planner'] as const;
export type ChangeFeedName = (typeof CHANGE_FEED_NAMES)[number];

/** SQL list of the feeds, for the database checks. */
export const CHANGE_FEED_NAMES_SQL = CHANGE_FEED_NAMES.map((feed) => `'${feed}'`).join(', ');
