/** What happened to an entity, as main-api's change feed says it (`GET /v1/events`). */
export const CHANGE_KINDS = ['created', 'updated', 'deleted'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** SQL list of the kinds, for the database checks. */
export const CHANGE_KINDS_SQL = CHANGE_KINDS.map((kind) => `'${kind}'`).join(', ');
