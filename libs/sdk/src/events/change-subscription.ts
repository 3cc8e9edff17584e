import type { MainApi, PlannerApi } from '@platform/api-clients';
import type { AccessTokenSource } from '../tokens/access-token-source';

/** A change event of main-api's feed (`GET /v1/events`), as its stream sends it. */
export type MainApiChangeEvent = MainApi.components['schemas']['ChangeEventDto'];
/** A change event of the planner's feed (`GET /v2/events`), as its stream sends it. */
export type PlannerChangeEvent = PlannerApi.components['schemas']['ChangeEventDto'];

/** Why a stream ended for good: the login was revoked (signed out), or the events since were pruned. */
export type SubscriptionEnd = 'revoked' | 'gone' | 'refused';

/** The part of the browser's `EventSource` a subscription uses (Node: pass an implementation). */
export interface EventSourceLike {
  readonly readyState: number;
  onmessage: ((message: { data: string; lastEventId: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  addEventListener(type: string, listener: (message: { data: string }) => void): void;
  close(): void;
}
export type EventSourceConstructor = new (url: string) => EventSourceLike;

export interface ChangeSubscriptionOptions<Event> {
  /** Only these entity kinds, these projects' events; left out: everything of the company. */
  entities?: string[];
  projectIds?: number[];
  /** Start after this cursor (a subscription that goes on where an earlier one stopped). */
  after?: string;
  onChange(event: Event): void;
  /** The subscription ended and will not come back: `gone` (reload the state, subscribe again), `revoked`. */
  onEnd?(reason: SubscriptionEnd): void;
  /** Default: `globalThis.EventSource` (every browser). */
  eventSource?: EventSourceConstructor;
}

export interface ChangeSubscription {
  /** The cursor of the last event handed to onChange. */
  readonly lastEventId: string | undefined;
  close(): void;
}

/** EventSource.CLOSED: the browser gave up reconnecting (a 401 or 503 answered its reconnect). */
const CLOSED = 2;
/** New tickets tried in a row before the subscription gives up (`onEnd('refused')`). */
const MAX_REOPENS = 5;

/**
 * Follows a service's change stream (issue 41): gets a ticket with the SDK's token, opens an
 * `EventSource` on it, and hands each change to `onChange`. The browser's own reconnects resume
 * after the last event (Last-Event-ID); when the token behind the ticket expires, or a reconnect is
 * refused, it opens a new ticket after the last event, so no change is lost or handed over twice.
 */
export async function subscribeToChanges<Event extends { cursor: string }>(
  service: { baseUrl: string; ticketPath: string },
  tokens: AccessTokenSource,
  options: ChangeSubscriptionOptions<Event>,
): Promise<ChangeSubscription> {
  const EventSourceClass =
    options.eventSource ?? (globalThis as unknown as { EventSource?: EventSourceConstructor }).EventSource;
  if (!EventSourceClass) {
    throw new Error('No EventSource here: pass options.eventSource (e.g. the `eventsource` package in Node)');
  }
  let last = options.after;
  let source: EventSourceLike | undefined;
  let closed = false;
  let reopens = 0;

  const end = (reason: SubscriptionEnd): void => {
    closed = true;
    source?.close();
    options.onEnd?.(reason);
  };
  const open = async (): Promise<void> => {
    const url = await ticketUrl(service, tokens, options, last);
    if (closed) {
      return;
    }
    const current = new EventSourceClass(url);
    source = current;
    current.onmessage = (message) => {
      reopens = 0;
      const event = JSON.parse(message.data) as Event;
      last = message.lastEventId || event.cursor;
      options.onChange(event);
    };
    current.addEventListener('end', (message) => {
      const { reason } = JSON.parse(message.data) as { reason: string };
      if (reason === 'revoked') {
        end('revoked');
      } else if (reason === 'expired') {
        current.close();
        void reopen();
      }
      // shutdown, slow_consumer, unverified: EventSource reconnects by itself, with Last-Event-ID.
    });
    current.addEventListener('gone', () => end('gone'));
    current.onerror = () => {
      if (current.readyState === CLOSED && !closed) {
        void reopen();
      }
    };
  };
  const reopen = async (): Promise<void> => {
    reopens += 1;
    if (reopens > MAX_REOPENS) {
      end('refused');
      return;
    }
    await open().catch(() => end('refused'));
  };

  await open();
  return {
    get lastEventId() {
      return last;
    },
    close: () => {
      closed = true;
      source?.close();
    },
  };
}

async function ticketUrl(
  service: { baseUrl: string; ticketPath: string },
  tokens: AccessTokenSource,
  options: ChangeSubscriptionOptions<unknown>,
  after: string | undefined,
): Promise<string> {
  const token = await tokens.accessToken();
  const response = await fetch(`${service.baseUrl}${service.ticketPath}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      ...(options.entities ? { entities: options.entities } : {}),
      ...(options.projectIds ? { project_ids: options.projectIds } : {}),
    }),
  });
  if (response.status === 401) {
    tokens.reject(token);
  }
  if (!response.ok) {
    throw new Error(`the stream ticket was refused: ${response.status}`);
  }
  const { stream_url } = (await response.json()) as { stream_url: string };
  const url = new URL(stream_url, service.baseUrl);
  if (after) {
    url.searchParams.set('after', after);
  }
  return url.href;
}
