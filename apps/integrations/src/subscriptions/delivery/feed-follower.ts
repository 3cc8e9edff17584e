import { Injectable, Logger } from '@nestjs/common';
import { CHANGE_FEED_ENTITIES, type ChangeFeedEntity, type IntegrationSource } from '@platform/contracts';
import { TenantScopes, type TenantScope, type TenantUnitOfWork } from '@platform/database';
import { MainApiRequestError } from '@platform/main-api-client';
import { claimsOf, MainApiTokens } from '../../credentials/main-api-tokens';
import { SecretBox } from '../../credentials/secret-box';
import { subscriptionSecretPlace } from '../subscription-secrets';
import { externalIdKey, MappingsRepository } from '../../mappings/mappings.repository';
import type { SubscriptionPayload } from '../webhook-subscription.entity';
import type { ChangeFeed } from './change-feeds';
import {
  CURSOR,
  parseFeedEvent,
  snapshotPath,
  wants,
  webhookBody,
  type FeedEvent,
  type FeedPage,
} from './feed-event';

/** Events asked for per page of the feed (the feeds' largest page). */
const PAGE_SIZE = 1000;
/** A subscription whose API client main-api refuses is reported at most this often. */
const REFUSAL_REPORT_INTERVAL_MS = 60_000;
/** Pages read per company in one turn, so one busy company does not starve the others. */
const PAGES_PER_TURN = 10;

interface ActiveSubscription {
  id: string;
  source: string;
  entities: string[];
  kinds: string[];
  project_ids: number[];
  payload: SubscriptionPayload;
  api_key: string;
  client_secret_sealed: string;
  created_at: Date;
}

interface Match {
  event: FeedEvent;
  subscription: ActiveSubscription;
}

interface PageOutcome {
  queued: number;
  more: boolean;
  /** false when no subscription's API client could read the page (main-api refused them all). */
  read: boolean;
}

/** What one turn over some companies did, and which of them need another turn. */
export interface FollowReport {
  queued: number;
  /** Companies with more pages than one turn reads: due again at once. */
  more: number[];
  /** Companies whose feed could not be read (main-api down, or every API client refused): due later. */
  failed: number[];
}

/**
 * Follows a service's change feed (main-api's or the planner's, `ChangeFeed`) of companies with
 * active subscriptions to its entities and queues one delivery per matching event and subscription.
 * The companies are found across companies (the `delivery` purpose); each company's page is then
 * read and queued in that company's scope. Which companies to read is FeedWatcher's choice: those
 * the service's watch names, or all of them.
 *
 * No transaction is held across the call to main-api: the page is read after the cursor, then one
 * transaction queues its deliveries and moves the cursor, only if the cursor is still where the page
 * was read from (compare and set, the row locked by the UPDATE). A replica that read the same page
 * concurrently finds the cursor moved and drops its copy; a crash re-reads the page, and the unique
 * (subscription, feed, cursor) key keeps a re-read page from queueing anything twice. Each feed has
 * its own cursor per company.
 */
@Injectable()
export class FeedFollower {
  private readonly logger = new Logger('FeedFollower');
  private readonly lastRefusalReport = new Map<string, number>();

  constructor(
    private readonly scopes: TenantScopes,
    private readonly tokens: MainApiTokens,
    private readonly box: SecretBox,
    private readonly mappings: MappingsRepository,
  ) {}

  /** One turn over every company with active subscriptions to the feed's entities. */
  followAll(feed: ChangeFeed): Promise<FollowReport> {
    return this.followCompanies(feed, undefined);
  }

  /** One turn over those of `companyIds` that have active subscriptions to the feed's entities. */
  follow(feed: ChangeFeed, companyIds: readonly number[]): Promise<FollowReport> {
    return companyIds.length === 0
      ? Promise.resolve({ queued: 0, more: [], failed: [] })
      : this.followCompanies(feed, [...companyIds]);
  }

  private async followCompanies(feed: ChangeFeed, only: number[] | undefined): Promise<FollowReport> {
    const acrossCompanies = this.scopes.acrossCompanies('delivery');
    const subscribing = `SELECT DISTINCT company_id, $2::varchar AS feed FROM webhook_subscriptions
      WHERE status = 'active' AND ($1::integer[] IS NULL OR company_id = ANY($1::integer[]))
        AND ${wantsFeed('$3')}`;
    const parameters = [only ?? null, feed.name, feed.entities];
    // Each company with active subscriptions has a cursor row per feed, made in one statement for
    // all of them (DO NOTHING: no lock on an existing row, which another replica may be moving).
    await acrossCompanies.sql.execute(
      `INSERT INTO feed_cursors (company_id, feed) ${subscribing} ON CONFLICT (company_id, feed) DO NOTHING`,
      parameters,
    );
    const companies = await acrossCompanies.sql.select<{ company_id: number }>(
      `${subscribing} ORDER BY company_id`,
      parameters,
    );
    const report: FollowReport = { queued: 0, more: [], failed: [] };
    for (const { company_id: companyId } of companies) {
      const scope = this.scopes.forCompany(companyId);
      try {
        let outcome: PageOutcome = { queued: 0, more: true, read: true };
        for (let page = 0; page < PAGES_PER_TURN && outcome.more; page += 1) {
          outcome = await this.followPage(feed, scope, companyId);
          report.queued += outcome.queued;
        }
        if (!outcome.read) {
          report.failed.push(companyId);
        } else if (outcome.more) {
          report.more.push(companyId);
        }
      } catch (error) {
        // main-api down, say: this company's feed waits for its next turn, the others go on.
        report.failed.push(companyId);
        this.logger.warn(
          { company_id: companyId, err: error instanceof Error ? error.message : String(error) },
          `could not read ${feed.name}'s change feed; trying again on the next turn`,
        );
      }
    }
    return report;
  }

  private async followPage(feed: ChangeFeed, scope: TenantScope, companyId: number): Promise<PageOutcome> {
    const [cursor] = await scope.sql.select<{ last_cursor: string }>(
      'SELECT last_cursor::text AS last_cursor FROM feed_cursors WHERE company_id = $1 AND feed = $2',
      [companyId, feed.name],
    );
    const subscriptions = await scope.sql.select<ActiveSubscription>(
      `SELECT id, source, entities, kinds, project_ids, payload, api_key, client_secret_sealed, created_at
         FROM webhook_subscriptions
        WHERE company_id = $1 AND status = 'active' AND ${wantsFeed('$2')} ORDER BY created_at, id`,
      [companyId, feed.entities],
    );
    if (!cursor || subscriptions.length === 0) {
      return { queued: 0, more: false, read: true };
    }
    const page = await this.readPage(feed, companyId, cursor.last_cursor, subscriptions);
    if (page === 'expired') {
      this.logger.warn(
        { company_id: companyId, feed: feed.name, cursor: cursor.last_cursor },
        'the change feed no longer holds this cursor (CursorExpiredError): reading it again from the start',
      );
      const moved = await scope.transaction((unit) =>
        this.moveCursor(unit, feed, companyId, cursor.last_cursor, '0'),
      );
      return { queued: 0, more: moved, read: true };
    }
    if (!page) {
      return { queued: 0, more: false, read: false };
    }
    const events = page.data.flatMap((raw) => {
      const event = parseFeedEvent(raw, feed.entities);
      if (!event) {
        this.logger.error(
          { company_id: companyId, feed: feed.name, event: raw },
          'skipping a change event this service cannot read',
        );
      }
      return event ? [event] : [];
    });
    const matches = this.matching(events, subscriptions);
    const externalIds =
      matches.length === 0
        ? new Map<string, string>()
        : await this.mappings.withScope(scope).externalIds(
            [...new Set(matches.map((match) => match.subscription.source as IntegrationSource))],
            // Only main-api's kinds are written by external id (the planner's ids are uuids).
            matches.flatMap(({ event }) =>
              typeof event.id === 'number' && isChangeFeedEntity(event.entity)
                ? [{ entity: event.entity, platformId: event.id }]
                : [],
            ),
          );
    const snapshots = await this.snapshotsOf(feed, companyId, matches);
    return scope.transaction(async (unit) => {
      // The cursor first: it is the lock of this company's feed, and it tells whether another
      // replica queued this page meanwhile (then nothing more is done here).
      if (!(await this.moveCursor(unit, feed, companyId, cursor.last_cursor, page.next_cursor))) {
        return { queued: 0, more: false, read: true };
      }
      const queued = await this.queue(unit, feed, companyId, matches, externalIds, snapshots);
      return { queued, more: page.data.length >= PAGE_SIZE, read: true };
    });
  }

  /**
   * A page after `after`, read with the first subscription's API client that the service accepts
   * for this company; undefined when none does (each refusal is logged), 'expired' when the feed no
   * longer holds the cursor. Tokens come from main-api, which issues them for every service.
   */
  private async readPage(
    feed: ChangeFeed,
    companyId: number,
    after: string,
    subscriptions: ActiveSubscription[],
  ): Promise<FeedPage | 'expired' | undefined> {
    const tried = new Set<string>();
    for (const subscription of subscriptions) {
      if (tried.has(subscription.api_key)) {
        continue;
      }
      tried.add(subscription.api_key);
      let token: string;
      try {
        token = await this.tokens.tokenFor(
          subscription.api_key,
          this.box.open(
            subscription.client_secret_sealed,
            subscriptionSecretPlace({ companyId, id: subscription.id }, 'client_secret_sealed'),
          ),
        );
      } catch (error) {
        if (!(error instanceof MainApiRequestError)) {
          throw error;
        }
        this.refused(companyId, subscription, `main-api refused the API client (${error.status})`);
        continue;
      }
      // Defence in depth: another company's feed must never reach this company's subscribers.
      if (claimsOf(token).company_id !== companyId) {
        this.refused(companyId, subscription, 'the API client belongs to another company');
        continue;
      }
      try {
        const page = await feed.client.request<FeedPage>({
          method: 'GET',
          path: feed.eventsPath,
          query: { after, limit: PAGE_SIZE },
          caller: { authorization: `Bearer ${token}` },
        });
        if (
          !Array.isArray(page?.data) ||
          typeof page.next_cursor !== 'string' ||
          !CURSOR.test(page.next_cursor)
        ) {
          throw new Error(`${feed.name} answered a change feed page this service cannot read`);
        }
        return page;
      } catch (error) {
        if (error instanceof MainApiRequestError && error.status === 410) {
          return 'expired';
        }
        if (error instanceof MainApiRequestError && (error.status === 401 || error.status === 403)) {
          this.tokens.forget(subscription.api_key);
          this.refused(companyId, subscription, `${feed.name} answered ${error.status} to the change feed`);
          continue;
        }
        throw error;
      }
    }
    return undefined;
  }

  private refused(companyId: number, subscription: ActiveSubscription, reason: string): void {
    const now = Date.now();
    if (now - (this.lastRefusalReport.get(subscription.id) ?? 0) < REFUSAL_REPORT_INTERVAL_MS) {
      return;
    }
    this.lastRefusalReport.set(subscription.id, now);
    this.logger.warn(
      { company_id: companyId, subscription_id: subscription.id, api_key: subscription.api_key },
      `cannot read the change feed with this subscription's API client: ${reason}`,
    );
  }

  /** Each event with each subscription that wants it. */
  private matching(events: FeedEvent[], subscriptions: ActiveSubscription[]): Match[] {
    return events.flatMap((event) =>
      subscriptions
        .filter((subscription) =>
          wants(
            {
              source: subscription.source,
              entities: subscription.entities,
              kinds: subscription.kinds,
              projectIds: subscription.project_ids,
              createdAt: subscription.created_at,
            },
            event,
          ),
        )
        .map((subscription) => ({ event, subscription })),
    );
  }

  /** One delivery per match, the body frozen now. */
  private async queue(
    unit: TenantUnitOfWork,
    feed: ChangeFeed,
    companyId: number,
    matches: Match[],
    externalIds: Map<string, string>,
    snapshots: Map<string, unknown>,
  ): Promise<number> {
    if (matches.length === 0) {
      return 0;
    }
    const inserted = await unit.sql.execute<{ id: string }>(
      `INSERT INTO webhook_deliveries (company_id, feed, subscription_id, event_cursor, entity, kind, payload)
       SELECT $1, $7, subscription_id, event_cursor, entity, kind, payload
         FROM unnest($2::uuid[], $3::bigint[], $4::varchar[], $5::varchar[], $6::json[])
           AS queued (subscription_id, event_cursor, entity, kind, payload)
       ON CONFLICT (subscription_id, feed, event_cursor) DO NOTHING
       RETURNING id`,
      [
        companyId,
        matches.map(({ subscription }) => subscription.id),
        matches.map(({ event }) => event.cursor),
        matches.map(({ event }) => event.entity),
        matches.map(({ event }) => event.kind),
        matches.map(({ event, subscription }) =>
          webhookBody(
            event,
            (typeof event.id === 'number'
              ? externalIds.get(externalIdKey(subscription.source, event.entity, event.id))
              : undefined) ?? null,
            subscription.payload === 'snapshot'
              ? (snapshots.get(snapshotKey(subscription.api_key, event)) ?? null)
              : undefined,
          ),
        ),
        feed.name,
      ],
    );
    return inserted.length;
  }

  /**
   * For the matches of `payload: snapshot` subscriptions, each entity as its service's route answers
   * it now, read with the subscription's own API client (so it sees what that client may see), once
   * per client and entity. A deletion, a kind without a route by id, a 404 (deleted since) or a
   * refusal of that client has none: one entity it may not read must not stop its company's feed. Read before the transaction that queues, like the page itself: no transaction waits on
   * main-api.
   */
  private async snapshotsOf(
    feed: ChangeFeed,
    companyId: number,
    matches: Match[],
  ): Promise<Map<string, unknown>> {
    const snapshots = new Map<string, unknown>();
    for (const { event, subscription } of matches) {
      const key = snapshotKey(subscription.api_key, event);
      const path = snapshotPath(event);
      if (subscription.payload !== 'snapshot' || path === undefined || snapshots.has(key)) {
        continue;
      }
      const token = await this.tokens.tokenFor(
        subscription.api_key,
        this.box.open(
          subscription.client_secret_sealed,
          subscriptionSecretPlace({ companyId, id: subscription.id }, 'client_secret_sealed'),
        ),
      );
      try {
        snapshots.set(
          key,
          await feed.client.request<unknown>({
            method: 'GET',
            path,
            caller: { authorization: `Bearer ${token}` },
          }),
        );
      } catch (error) {
        // Gone since (404), or not for this client to see (401, 403): the event goes without one.
        // Only the service being unavailable or busy (5xx, 429, timeouts) holds the page back, to be
        // read again.
        if (!(error instanceof MainApiRequestError) || error.status >= 500 || error.status === 429) {
          throw error;
        }
        snapshots.set(key, null);
      }
    }
    return snapshots;
  }

  /** Moves the cursor from `from` to `to`; false when it is no longer at `from` (another replica moved it). */
  private async moveCursor(
    unit: TenantUnitOfWork,
    feed: ChangeFeed,
    companyId: number,
    from: string,
    to: string,
  ): Promise<boolean> {
    // In a WITH, so that the driver answers the rows written (it answers a bare UPDATE differently).
    const moved = await unit.sql.execute<{ company_id: number }>(
      `WITH moved AS (
         UPDATE feed_cursors SET last_cursor = $3::bigint, updated_at = now()
          WHERE company_id = $1 AND last_cursor = $2::bigint AND feed = $4 RETURNING company_id)
       SELECT company_id FROM moved`,
      [companyId, from, to, feed.name],
    );
    return moved.length > 0;
  }
}

/**
 * A subscription needs a feed when it names no entity (all of them) or one the feed carries;
 * `entities` is the parameter holding the feed's entities.
 */
const wantsFeed = (entities: string): string =>
  `(cardinality(entities) = 0 OR entities && ${entities}::varchar[])`;

const isChangeFeedEntity = (entity: string): entity is ChangeFeedEntity =>
  CHANGE_FEED_ENTITIES.includes(entity);

/** A snapshot is read once per API client and entity version (the event). */
function snapshotKey(apiKey: string, event: FeedEvent): string {
  return `${apiKey} ${event.cursor}`;
}
