import {
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';

/** One server-sent event as a stream carries it. */
export interface SentEvent {
  id?: string;
  event?: string;
  data?: unknown;
}

/** A change event of a feed, as far as the stream specs read it. */
export interface StreamedChange {
  cursor: string;
  entity: string;
  kind: string;
  id: number | string;
  project_id?: number | null;
}

/** A stream answer other than 200: its status, headers and body. */
export interface RefusedStream {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An open change stream (issue 41) read over real HTTP as a browser's EventSource would: its
 * events, its comments (heartbeats), and its end.
 */
export class EventStreamReader<Change = StreamedChange> {
  readonly events: SentEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';
  private waiters: (() => void)[] = [];

  constructor(
    readonly response: IncomingMessage,
    private readonly request: ClientRequest,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        this.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
      }
      this.wake();
    });
    response.on('end', () => {
      this.ended = true;
      this.wake();
    });
    response.on('error', () => undefined);
  }

  /** Waits until `done` holds (checked at each chunk), or fails after `ms`. */
  async until(done: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) {
        throw new Error(`stream: condition not met; events ${JSON.stringify(this.events)}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** The data events (changes), in order. */
  get changes(): Change[] {
    return this.events
      .filter((event) => event.event === undefined && event.id !== undefined)
      .map((event) => event.data as Change);
  }

  /** Drops the connection, as a network failure would. */
  close(): void {
    this.request.destroy();
  }

  private parse(block: string): void {
    const event: SentEvent = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
      } else if (line.startsWith('id: ')) {
        event.id = line.slice(4);
      } else if (line.startsWith('event: ')) {
        event.event = line.slice(7);
      } else if (line.startsWith('data: ')) {
        event.data = JSON.parse(line.slice(6));
      }
    }
    if (event.id !== undefined || event.event !== undefined || event.data !== undefined) {
      this.events.push(event);
    }
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) {
      wake();
    }
  }
}

/**
 * GETs a stream URL as EventSource does (with `Last-Event-ID` on a reconnect): the open stream on a
 * 200, else the refusal with its body.
 */
export function openEventStream<Change = StreamedChange>(
  url: string,
  lastEventId?: string,
): Promise<EventStreamReader<Change> | RefusedStream> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      },
      (response) => {
        if (response.statusCode === 200) {
          resolve(new EventStreamReader<Change>(response, request));
        } else {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () =>
            resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body }),
          );
        }
      },
    );
    request.on('error', reject);
    request.end();
  });
}
