import type { Provider } from '@nestjs/common';
import { CURRENT_PURPOSE } from '../tenancy/row-level-security';
import { TenantScopes } from '../tenancy/tenant-scopes';
import {
  ChangeNotificationListener,
  type ChangeNotificationListenerOptions,
} from './change-notification-listener';

/** The answer of a service's change-feed watch (`GET /v1/events/watch`, `GET /v2/events/watch`). */
export interface ChangedCompanies {
  /** A PostgreSQL snapshot as text: pass it as `after` next time. */
  position: string;
  /** No usable `after` (absent, or from the future): the caller reads every company feed once. */
  reset: boolean;
  /** Companies with events committed after `after`, in id order. */
  companies: number[];
}

/**
 * Which companies have change events committed after a position (issue 24): the one question
 * integrations asks a service at rest, instead of reading every subscribing company's feed every
 * second. main-api and the planner answer it alike, each over its own `change_events`.
 *
 * The position is a PostgreSQL snapshot, not a cursor. Cursors are drawn before commit, so a
 * transaction can commit cursor N after another company's N+1 was already reported: "after cursor
 * N+1" would miss it for good. A snapshot says exactly which transactions a read saw; every event is
 * either in a transaction visible to it (reported by that read or an earlier one, or by the reset
 * that started the consumer) or in one that is not, which the next read with that position reports
 * once it has committed. Each event row carries its transaction (`transaction_id`, indexed), and
 * every transaction below the snapshot's xmin is visible to it, so the read scans only the
 * transactions since then.
 */
export class ChangedCompaniesWatch {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly listener: ChangeNotificationListener,
  ) {}

  /**
   * Answers at once when there is something to report (or no position), otherwise when a commit
   * appends events (woken by the listener) or after `waitSeconds` with no companies. `abandoned`
   * (the caller hung up, e.g. an integrations replica stopping) ends the wait.
   */
  async watch(
    after: string | undefined,
    waitSeconds: number,
    abandoned?: AbortSignal,
  ): Promise<ChangedCompanies> {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      const seen = this.listener.generation;
      const answer = await this.changedSince(after);
      if (answer.reset || answer.companies.length > 0 || Date.now() >= deadline) {
        return answer;
      }
      // Woken by a commit, or a second passed while the listener is not listening: read again.
      await this.listener.changeAfter(seen, deadline - Date.now(), abandoned);
      if (this.listener.stopping || abandoned?.aborted) {
        // The replica is closing (its pool may be closed already), or nobody waits for the answer.
        return { position: answer.position, reset: false, companies: [] };
      }
    }
  }

  /**
   * `watch`, for a route: the caller hanging up before the answer is written (it gave up, or
   * stopped) ends the wait. `response` is the route's raw Node response.
   */
  answer(
    query: { after?: string; wait: number },
    response: { once(event: 'close', listener: () => void): unknown; readonly writableFinished: boolean },
  ): Promise<ChangedCompanies> {
    const abandoned = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) {
        abandoned.abort();
      }
    });
    return this.watch(query.after, query.wait, abandoned.signal);
  }

  /**
   * The companies with events in transactions the snapshot `after` did not see, and the current
   * snapshot as the next position, in one statement, so the position answered is the snapshot the
   * companies were read with. `reset` when there is no position, or it is from the future (a
   * restored or replaced database); a reset reports no companies (everything is read anyway).
   */
  private async changedSince(after: string | undefined): Promise<ChangedCompanies> {
    const [answer] = await this.scopes.acrossCompanies('feed-watch').sql.select<ChangedCompanies>(
      `SELECT pg_current_snapshot()::text AS position,
              coalesce(pg_snapshot_xmax($1::pg_snapshot) > pg_snapshot_xmax(pg_current_snapshot()), true) AS reset,
              ARRAY(SELECT DISTINCT company_id FROM change_events
                     WHERE transaction_id >= pg_snapshot_xmin($1::pg_snapshot)::text::bigint
                       AND NOT pg_visible_in_snapshot(transaction_id::text::xid8, $1::pg_snapshot)
                     ORDER BY company_id) AS companies`,
      [after ?? null],
    );
    if (!answer) {
      throw new Error('the change feed watch read answered no row');
    }
    return answer.reset ? { ...answer, companies: [] } : answer;
  }
}

/**
 * What a service's change-feed watch needs of its database: the `feed-watch` purpose may read
 * change_events across companies (to answer their ids, never their events), and a statement-level
 * trigger NOTIFYs `channel` when events are appended. NOTIFY is delivered when the appending
 * transaction commits and never when it rolls back, and PostgreSQL folds a transaction's identical
 * notifications into one, so a write costs one notification however many events it appends.
 */
export const changeFeedWatchSql = {
  up: (channel: string): string[] => [
    `CREATE POLICY feed_watch_select ON "change_events" FOR SELECT USING (${CURRENT_PURPOSE} = 'feed-watch')`,
    `CREATE FUNCTION notify_change_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${channel}', '');
        RETURN NULL;
      END
      $$`,
    `CREATE TRIGGER "change_events_notify" AFTER INSERT ON "change_events" FOR EACH STATEMENT EXECUTE FUNCTION notify_change_events()`,
  ],
  down: [
    `DROP TRIGGER "change_events_notify" ON "change_events"`,
    `DROP FUNCTION notify_change_events()`,
    `DROP POLICY feed_watch_select ON "change_events"`,
  ],
};

/**
 * The listener and the watch as Nest providers: one listening connection per replica, its options
 * from the service's environment (`envToken`).
 */
export function changeFeedWatchProviders<Env>(
  envToken: symbol,
  listenerOptions: (env: Env) => ChangeNotificationListenerOptions,
): Provider[] {
  return [
    {
      provide: ChangeNotificationListener,
      inject: [envToken],
      useFactory: (env: Env) => new ChangeNotificationListener(listenerOptions(env)),
    },
    {
      provide: ChangedCompaniesWatch,
      inject: [TenantScopes, ChangeNotificationListener],
      useFactory: (scopes: TenantScopes, listener: ChangeNotificationListener) =>
        new ChangedCompaniesWatch(scopes, listener),
    },
  ];
}
