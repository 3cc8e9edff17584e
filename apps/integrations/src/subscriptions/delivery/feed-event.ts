import type { SubscriptionEntity } from '@platform/contracts';
import { isoFromMainApi } from '../../main-api/main-api-timestamp';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';

/** One event of main-api's change feed (`GET /v1/events`) or the planner's (`GET /v2/events`). */
export interface FeedEvent {
  cursor: string;
  entity: SubscriptionEntity;
  /** main-api's ids are integers, the planner's uuids. */
  id: number | string;
  kind: ChangeKind;
  changed_fields: string[];
  /** The source whose write through the integrations service caused it, or null. */
  origin: string | null;
  /** The project the changed entity belongs to (the feed names it), or null. */
  project_id: number | null;
  /** The planner's events only: the user an allocation books. */
  user_id?: number | null;
  /** ISO 8601 UTC. */
  occurred_at: string;
}

export interface FeedPage {
  data: unknown[];
  next_cursor: string;
}

/** A cursor as the feed writes it: a decimal that fits Postgres' bigint. */
export const CURSOR = /^(0|[1-9]\d{0,17})$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isNullableId = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'number' && Number.isSafeInteger(value));

/**
 * The event, or undefined when it is not one this service understands (it is then skipped):
 * `entities` are the kinds its feed carries.
 */
export function parseFeedEvent(raw: unknown, entities: readonly string[]): FeedEvent | undefined {
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const event = raw as Record<string, unknown>;
  const occurredAt = typeof event.occurred_at === 'string' ? isoTimestamp(event.occurred_at) : undefined;
  const changedFields = event.changed_fields ?? [];
  if (
    typeof event.cursor !== 'string' ||
    !CURSOR.test(event.cursor) ||
    typeof event.entity !== 'string' ||
    !entities.includes(event.entity) ||
    !(
      (typeof event.id === 'number' && Number.isSafeInteger(event.id)) ||
      (typeof event.id === 'string' && UUID.test(event.id))
    ) ||
    !CHANGE_KINDS.includes(event.kind as ChangeKind) ||
    !Array.isArray(changedFields) ||
    !changedFields.every((field) => typeof field === 'string') ||
    !(event.origin === null || event.origin === undefined || typeof event.origin === 'string') ||
    !isNullableId(event.project_id) ||
    !isNullableId(event.user_id) ||
    occurredAt === undefined
  ) {
    return undefined;
  }
  return {
    cursor: event.cursor,
    entity: event.entity as SubscriptionEntity,
    id: event.id,
    kind: event.kind as ChangeKind,
    changed_fields: changedFields,
    origin: event.origin ?? null,
    project_id: (event.project_id as number | null | undefined) ?? null,
    ...(event.user_id === undefined ? {} : { user_id: event.user_id as number | null }),
    occurred_at: occurredAt,
  };
}

/** ISO 8601 UTC from the feed's timestamp (main-api's `YYYY-MM-DD HH:mm:ss` UTC is read too). */
function isoTimestamp(value: string): string | undefined {
  const time = Date.parse(isoFromMainApi(value));
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** What a subscription asked for, and since when. */
export interface SubscriptionFilter {
  source: string;
  entities: readonly string[];
  kinds: readonly string[];
  /** Empty: every change. */
  projectIds: readonly number[];
  createdAt: Date;
}

/**
 * Whether `subscription` gets `event`: an entity and kind it asked for, a change that occurred
 * after it was created (the feed may hold older ones: a company's cursor starts at the oldest
 * retained event), of one of the projects it names if it names any, and not a change its own source
 * made through this service (no echo).
 */
export function wants(subscription: SubscriptionFilter, event: FeedEvent): boolean {
  return (
    event.origin !== subscription.source &&
    (subscription.entities.length === 0 || subscription.entities.includes(event.entity)) &&
    subscription.kinds.includes(event.kind) &&
    (subscription.projectIds.length === 0 ||
      (event.project_id !== null && subscription.projectIds.includes(event.project_id))) &&
    Date.parse(event.occurred_at) >= subscription.createdAt.getTime()
  );
}

/**
 * The body sent for an event (Standard Webhooks payload shape), frozen as text when the event is
 * read: every attempt sends, and signs, exactly these bytes.
 */
export function webhookBody(
  event: FeedEvent,
  externalId: string | null,
  /** For a `payload: snapshot` subscription: the entity after the change, or null. */
  snapshot?: unknown,
): string {
  return JSON.stringify({
    type: `${event.entity}.${event.kind}`,
    timestamp: event.occurred_at,
    data: {
      entity: event.entity,
      id: event.id,
      external_id: externalId,
      kind: event.kind,
      changed_fields: event.changed_fields,
      cursor: event.cursor,
      occurred_at: event.occurred_at,
      project_id: event.project_id,
      ...(event.user_id !== undefined ? { user_id: event.user_id } : {}),
      ...(snapshot !== undefined ? { snapshot } : {}),
    },
  });
}

/**
 * The route that answers one entity of each kind by id, on the service whose feed carries it; kinds
 * without one have no snapshot.
 */
const SNAPSHOT_ROUTES: Partial<Record<SubscriptionEntity, string>> = {
  brands: '/v1/brands/',
  clients: '/v1/clients/',
  contracts: '/v1/contracts/',
  positions: '/v1/positions/',
  'position-categories': '/v1/position-categories/',
  projects: '/v1/projects/',
  teams: '/v1/teams/',
  users: '/v1/users/',
  workspaces: '/v1/workspaces/',
  // The working week of the user the event names.
  'working-time': '/v1/working-time/users/',
  tasks: '/v1/tasks/',
  hours: '/v1/hours/',
  transactions: '/v1/transactions/',
  ratecards: '/v1/ratecards/',
  labels: '/v1/labels/',
  products: '/v1/products/',
  // The planner's (read with the planner's client: the feed's own).
  allocations: '/v2/allocations/',
  placeholders: '/v2/placeholders/',
  // An applied scenario: its event is its update to applied; the read answers what it changed.
  scenarios: '/v2/scenarios/',
};

/** Where the entity of `event` is read after the change, or undefined (deleted, or no such route). */
export function snapshotPath(event: FeedEvent): string | undefined {
  const route = SNAPSHOT_ROUTES[event.entity];
  return event.kind === 'deleted' || route === undefined ? undefined : `${route}${event.id}`;
}
