import type { ServerResponse } from 'node:http';

export interface ServerSentEventsOptions {
  /** `retry:`: how long a browser's EventSource waits before it reconnects. */
  retryMs: number;
  /** Bytes a consumer may leave unread before `send` answers false (it is then dropped). */
  maxBufferedBytes: number;
  /** Headers the route already set (CORS, request id), written with the stream's own. */
  headers: Record<string, string | string[] | number | undefined>;
}

/**
 * A `text/event-stream` answer on a raw Node response (the route has hijacked its reply): events
 * with their `id`, named events, comments (heartbeats), and the end. It never buffers beyond a
 * bound: `send` answers false once the consumer has `maxBufferedBytes` unread, and the caller ends
 * it rather than let memory grow.
 */
export class ServerSentEventStream {
  private ended = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: ServerSentEventsOptions,
  ) {}

  /** The status line, the headers and `retry:`. */
  start(): void {
    const headers: Record<string, string | string[] | number> = {};
    for (const [name, value] of Object.entries(this.options.headers)) {
      if (value !== undefined) {
        headers[name] = value;
      }
    }
    this.response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: a compressing proxy would hold events back to fill its buffer.
      'cache-control': 'no-cache, no-transform',
      // nginx (the ingress) passes the stream through unbuffered.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    this.response.write(`retry: ${this.options.retryMs}\n\n`);
  }

  get open(): boolean {
    return !this.ended && !this.response.destroyed;
  }

  /** An event the page's `onmessage` (or `addEventListener(event)`) gets; false: the consumer is too slow. */
  send(id: string | undefined, data: unknown, event?: string): boolean {
    if (!this.open) {
      return true;
    }
    const lines = [
      ...(event ? [`event: ${event}`] : []),
      ...(id !== undefined ? [`id: ${id}`] : []),
      // JSON has no raw newline, so the data is one line.
      `data: ${JSON.stringify(data)}`,
    ];
    this.response.write(`${lines.join('\n')}\n\n`);
    return this.response.writableLength <= this.options.maxBufferedBytes;
  }

  /** A comment line: nothing for the page, traffic for the proxies between (they close idle streams). */
  comment(text: string): void {
    if (this.open) {
      this.response.write(`: ${text}\n\n`);
    }
  }

  /** Ends the stream, with a last named event when there is one to say why. */
  end(last?: { event: string; data: unknown }): void {
    if (!this.open) {
      return;
    }
    if (last) {
      this.send(undefined, last.data, last.event);
    }
    this.ended = true;
    this.response.end();
  }
}
