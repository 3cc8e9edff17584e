import { Logger, type Provider } from '@nestjs/common';
import { SERVICE_SIGNATURE_HEADER, signServiceRequest } from '@platform/auth';
import { MainApiRequestError } from '@platform/main-api-client';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../../config/integrations.env';
import { CHANGE_FEEDS, type ChangeFeed } from './change-feeds';
import { FeedFollower, type FollowReport } from './feed-follower';

/** The service has no watch (older) or refuses this service (no CHANGE_ORIGIN_KEY): ask again this late. */
const WATCH_UNSUPPORTED_RETRY_MS = 60_000;
/** The watch failed otherwise (the service down, its breaker open): read every feed until then. */
const WATCH_FAILED_RETRY_MS = 5_000;
/** A company whose feed could not be read is tried again after 1 s, doubling up to a minute. */
const FAILED_RETRY_FIRST_MS = 1_000;
const FAILED_RETRY_MAX_MS = 60_000;
/** Beyond the wait itself, for the answer to travel. */
const WATCH_TIMEOUT_MARGIN_MS = 10_000;

interface WatchAnswer {
  position: string;
  reset: boolean;
  companies: number[];
}

interface Retry {
  dueAt: number;
  delayMs: number;
}

/**
 * Decides which companies' change feeds of one service (main-api's or the planner's, `ChangeFeed`)
 * this replica reads (issue 24); a replica runs one per feed. At rest it holds one long
 * poll open on the service's watch (`GET /v1/events/watch`, `GET /v2/events/watch`, signed as the integrations service), which
 * answers the companies with events committed since its last answer, woken by PostgreSQL
 * LISTEN/NOTIFY; only those companies' feeds are read, each with its own API client as before. So
 * an idle platform costs each service one request per replica per FEED_WATCH_WAIT_SECONDS, whatever
 * the number of companies.
 *
 * Every feed is read once when the watch starts (or restarts: a reset), since the position lives
 * only in this process; delivery stays at-least-once because each company's cursor is the database's
 * (FeedFollower). A company left with more pages is read again at once; one whose feed could not be
 * read (the service refused every API client, or failed) again after a backoff, so a refused API
 * client is still reported. While the watch is unavailable (an older service, no CHANGE_ORIGIN_KEY
 * there, the service down) every feed is read every DELIVERY_POLL_MS, as before the watch, and the
 * watch is tried again later.
 */
export class FeedWatcher {
  private readonly logger: Logger;
  private readonly retries = new Map<number, Retry>();
  private position?: string;
  private watchAgainAt = 0;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly follower: FeedFollower,
    private readonly env: IntegrationsEnv,
  ) {
    this.logger = new Logger(`FeedWatcher ${feed.name}`);
  }

  /** Follows the feeds until `stop` aborts; `queued` is called after each turn that queued deliveries. */
  async run(stop: AbortSignal, queued: () => void): Promise<void> {
    while (!stop.aborted) {
      try {
        const report = await this.turn(stop);
        if (report.queued > 0) {
          queued();
        }
      } catch (error) {
        this.logger.error(
          { err: error instanceof Error ? error.message : String(error) },
          'following the change feed failed',
        );
        await pause(this.env.DELIVERY_POLL_MS, stop);
      }
    }
  }

  /** One turn: ask the service (or, without its watch, take every company), then read those feeds. */
  async turn(stop: AbortSignal): Promise<FollowReport> {
    if (Date.now() < this.watchAgainAt) {
      await pause(this.env.DELIVERY_POLL_MS, stop);
      return this.followed(await this.follower.followAll(this.feed), 'all');
    }
    let answer: WatchAnswer;
    try {
      answer = await this.watch(stop);
    } catch (error) {
      if (stop.aborted) {
        return { queued: 0, more: [], failed: [] };
      }
      const unsupported = error instanceof MainApiRequestError && [401, 403, 404].includes(error.status);
      this.watchAgainAt = Date.now() + (unsupported ? WATCH_UNSUPPORTED_RETRY_MS : WATCH_FAILED_RETRY_MS);
      // Events committed meanwhile are found by the full reads; the watch starts over afterwards.
      this.position = undefined;
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        `${this.feed.name} cannot be watched for new change events: reading every company feed every DELIVERY_POLL_MS for now`,
      );
      return this.followed(await this.follower.followAll(this.feed), 'all');
    }
    const everything = this.position === undefined || answer.reset;
    this.position = answer.position;
    if (everything) {
      return this.followed(await this.follower.followAll(this.feed), 'all');
    }
    const due = [...this.retries].filter(([, retry]) => retry.dueAt <= Date.now()).map(([id]) => id);
    const companies = [...new Set([...answer.companies, ...due])];
    return this.followed(await this.follower.follow(this.feed, companies), companies);
  }

  private async watch(stop: AbortSignal): Promise<WatchAnswer> {
    const nextRetry = Math.min(...[...this.retries.values()].map((retry) => retry.dueAt));
    // Wake up in time for the next company due again; a second at least, as main-api counts seconds.
    const waitSeconds =
      this.position === undefined
        ? 0
        : Math.max(0, Math.min(this.env.FEED_WATCH_WAIT_SECONDS, Math.ceil((nextRetry - Date.now()) / 1000)));
    // The query string is signed too (libs/auth service-signature.ts), so the client is given the
    // request target as signed rather than a query to encode itself.
    const query = new URLSearchParams({
      ...(this.position === undefined ? {} : { after: this.position }),
      wait: String(waitSeconds),
    });
    const target = `${this.feed.watchPath}?${query.toString()}`;
    // Not cancelled at shutdown, only no longer awaited: aborting an undici request while main-api
    // holds it left main-api's side of the connection open until its keep-alive timeout, which held
    // main-api's own shutdown for 70 s. The process exits after closing; a dangling poll ends with
    // its wait anyway.
    const answer = await untilStopped(
      this.feed.client.request<WatchAnswer>({
        method: 'GET',
        path: target,
        headers: {
          [SERVICE_SIGNATURE_HEADER]: signServiceRequest(
            this.env.CHANGE_ORIGIN_KEY,
            'integrations',
            'GET',
            target,
          ),
        },
        timeoutMs: waitSeconds * 1000 + WATCH_TIMEOUT_MARGIN_MS,
      }),
      stop,
    );
    if (
      typeof answer?.position !== 'string' ||
      typeof answer.reset !== 'boolean' ||
      !Array.isArray(answer.companies) ||
      !answer.companies.every((id) => Number.isInteger(id) && id > 0)
    ) {
      throw new Error(`${this.feed.name} answered a change feed watch this service cannot read`);
    }
    return answer;
  }

  /** Remembers which of the companies just followed need another turn, and when. */
  private followed(report: FollowReport, followed: readonly number[] | 'all'): FollowReport {
    const unfinished = new Set([...report.more, ...report.failed]);
    for (const companyId of followed === 'all' ? [...this.retries.keys()] : followed) {
      if (!unfinished.has(companyId)) {
        this.retries.delete(companyId);
      }
    }
    const now = Date.now();
    for (const companyId of report.more) {
      this.retries.set(companyId, { dueAt: now, delayMs: 0 });
    }
    for (const companyId of report.failed) {
      const delayMs = Math.min(
        Math.max(FAILED_RETRY_FIRST_MS, (this.retries.get(companyId)?.delayMs ?? 0) * 2),
        FAILED_RETRY_MAX_MS,
      );
      this.retries.set(companyId, { dueAt: now + delayMs, delayMs });
    }
    return report;
  }
}

/** `work`, or a rejection as soon as `stop` aborts (`work` then goes on, unobserved). */
function untilStopped<T>(work: Promise<T>, stop: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const stopped = (): void => reject(new Error('stopped'));
    stop.addEventListener('abort', stopped, { once: true });
    work.then(
      (value) => {
        stop.removeEventListener('abort', stopped);
        resolve(value);
      },
      (error: unknown) => {
        stop.removeEventListener('abort', stopped);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener('abort', done, { once: true });
  });
}

/** One FeedWatcher per followed feed (DeliveryWorker runs each). */
export const FEED_WATCHERS = Symbol('FEED_WATCHERS');

export const feedWatchersProvider: Provider = {
  provide: FEED_WATCHERS,
  inject: [CHANGE_FEEDS, FeedFollower, INTEGRATIONS_ENV],
  useFactory: (feeds: ChangeFeed[], follower: FeedFollower, env: IntegrationsEnv): FeedWatcher[] =>
    feeds.map((feed) => new FeedWatcher(feed, follower, env)),
};
