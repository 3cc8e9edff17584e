import { FakeHttpServer } from '@platform/testing';
import type { AccessTokenSource } from '../tokens/access-token-source';
import { subscribeToChanges, type EventSourceLike } from './change-subscription';

/** A stand-in for the browser's EventSource: the test plays the server's side. */
class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  readyState = 1;
  onmessage: ((message: { data: string; lastEventId: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private readonly listeners = new Map<string, (message: { data: string }) => void>();

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (message: { data: string }) => void): void {
    this.listeners.set(type, listener);
  }

  close(): void {
    this.readyState = 2;
  }

  change(cursor: string): void {
    this.onmessage?.({ data: JSON.stringify({ cursor, entity: 'projects' }), lastEventId: cursor });
  }

  named(type: string, data: unknown): void {
    this.listeners.get(type)?.({ data: JSON.stringify(data) });
  }
}

describe('subscribeToChanges', () => {
  let server: FakeHttpServer;
  const tickets: { body: unknown; authorization: string | undefined }[] = [];
  const tokens: AccessTokenSource = { accessToken: () => Promise.resolve('t0k'), reject: () => undefined };

  beforeAll(async () => {
    server = await FakeHttpServer.start((request, response) => {
      tickets.push({
        body: JSON.parse(request.body) as unknown,
        authorization: request.headers.authorization,
      });
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ stream_url: `/v1/events/stream?ticket=T${tickets.length}` }));
    });
  });

  afterAll(() => server.stop());

  beforeEach(() => {
    FakeEventSource.opened = [];
    tickets.length = 0;
  });

  const subscribe = (onEnd?: (reason: string) => void) => {
    const seen: string[] = [];
    return subscribeToChanges<{ cursor: string }>(
      { baseUrl: server.url, ticketPath: '/v1/events/stream-tickets' },
      tokens,
      {
        entities: ['projects'],
        onChange: (event) => seen.push(event.cursor),
        onEnd,
        eventSource: FakeEventSource,
      },
    ).then((subscription) => ({ subscription, seen }));
  };

  it('opens a ticket with the token and filters, and hands each change over', async () => {
    const { subscription, seen } = await subscribe();
    FakeEventSource.opened[0].change('7');
    FakeEventSource.opened[0].change('9');

    expect(tickets).toEqual([{ body: { entities: ['projects'] }, authorization: 'Bearer t0k' }]);
    expect(FakeEventSource.opened[0].url).toBe(`${server.url}/v1/events/stream?ticket=T1`);
    expect(seen).toEqual(['7', '9']);
    expect(subscription.lastEventId).toBe('9');
  });

  it('opens a new ticket after the last event when the token expires, and when a reconnect is refused', async () => {
    const { seen } = await subscribe();
    FakeEventSource.opened[0].change('12');
    FakeEventSource.opened[0].named('end', { reason: 'expired' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeEventSource.opened[1].url).toBe(`${server.url}/v1/events/stream?ticket=T2&after=12`);

    FakeEventSource.opened[1].change('13');
    FakeEventSource.opened[1].readyState = 2;
    FakeEventSource.opened[1].onerror?.({});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeEventSource.opened[2].url).toBe(`${server.url}/v1/events/stream?ticket=T3&after=13`);
    expect(seen).toEqual(['12', '13']);
  });

  it('ends for good when the login is revoked or the events since were pruned', async () => {
    const ends: string[] = [];
    await subscribe((reason) => ends.push(reason));
    FakeEventSource.opened[0].named('end', { reason: 'revoked' });
    await subscribe((reason) => ends.push(reason));
    FakeEventSource.opened[1].named('gone', { status: 410 });
    // A replica stopping is not an end: the browser reconnects by itself.
    await subscribe((reason) => ends.push(reason));
    FakeEventSource.opened[2].named('end', { reason: 'shutdown' });

    expect(ends).toEqual(['revoked', 'gone']);
    expect(FakeEventSource.opened.map((source) => source.readyState)).toEqual([2, 2, 1]);
  });
});
