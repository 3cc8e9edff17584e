import type { ChangedCompaniesWatch } from './changed-companies-watch';

/** One change event as a stream sends it: its feed cursor (the SSE `id`) and its JSON. */
export interface StreamedEvent {
  cursor: string;
  entity: string;
  project_id: number | null;
  /** The event as the service's feed answers it (`GET /v1/events`, `GET /v2/events`). */
  data: unknown;
}

/** A company's feed, as the hub reads it: events after a cursor, in cursor order. */
export interface CompanyEventSource {
  eventsAfter(companyId: number, after: string, limit: number): Promise<StreamedEvent[]>;
}

/** What a stream takes of its company's events; absent: everything. */
export interface StreamFilters {
  entities?: ReadonlySet<string>;
  projectIds?: ReadonlySet<number>;
}

/** Where a stream's events go: an SSE response. */
export interface EventSink {
  /** Writes the event; false when the consumer's buffer is past its bound (the hub then drops it). */
  send(event: StreamedEvent): boolean;
  /** The consumer was too slow: its buffer grew past the bound. */
  dropSlow(): void;
}

interface OpenStream {
  companyId: number;
  /** The last cursor this stream has been given or passed over (filtered out). */
  readThrough: bigint;
  filters: StreamFilters;
  sink: EventSink;
  /** Closed by its consumer or dropped: a delivery under way skips it. */
  closed: boolean;
}

interface CompanyStreams {
  streams: Set<OpenStream>;
  /** Deliveries of one company run one after the other, so no stream is sent an event twice. */
  queue: Promise<void>;
}

/** Events read per statement: a backlog longer than this is read in pages. */
const PAGE = 500;
/** How long the hub waits on the listener before it asks again (a missed notification's bound). */
const WATCH_SECONDS = 25;

/**
 * Fans one replica's change events out to its open streams (issue 41): one LISTEN connection per
 * replica (the change-feed watch's), and per commit one statement that names the companies with new
 * events, then one read per such company that has streams, from the lowest cursor of its streams.
 * An open stream costs no statement of its own while nothing changes; a replica without streams
 * reads nothing at all.
 */
export class EventStreamHub {
  private readonly companies = new Map<number, CompanyStreams>();
  private streamCount = 0;
  private position: string | undefined;
  private watching?: AbortController;
  private stopped = false;

  constructor(
    private readonly watch: ChangedCompaniesWatch,
    private readonly source: CompanyEventSource,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Streams open on this replica. */
  get size(): number {
    return this.streamCount;
  }

  /** Streams of a company open on this replica. */
  sizeOf(companyId: number): number {
    return this.companies.get(companyId)?.streams.size ?? 0;
  }

  /**
   * Opens a stream of the company's events after `after`: what it missed first (its backlog), then
   * each new event as it commits. Answers the function that closes it.
   */
  open(companyId: number, after: string, filters: StreamFilters, sink: EventSink): () => void {
    const stream: OpenStream = { companyId, readThrough: BigInt(after), filters, sink, closed: false };
    let company = this.companies.get(companyId);
    if (!company) {
      company = { streams: new Set(), queue: Promise.resolve() };
      this.companies.set(companyId, company);
    }
    company.streams.add(stream);
    this.streamCount += 1;
    this.schedule(companyId);
    this.startWatching();
    return () => this.remove(stream);
  }

  /** The replica is stopping: no more reads. */
  stop(): void {
    this.stopped = true;
    this.watching?.abort();
  }

  private remove(stream: OpenStream): void {
    stream.closed = true;
    const company = this.companies.get(stream.companyId);
    if (!company?.streams.delete(stream)) {
      return;
    }
    this.streamCount -= 1;
    if (company.streams.size === 0) {
      this.companies.delete(stream.companyId);
    }
    if (this.streamCount === 0) {
      // Nobody to tell: the watch stops reading until a stream opens again.
      this.watching?.abort();
    }
  }

  private schedule(companyId: number): void {
    const company = this.companies.get(companyId);
    if (company) {
      company.queue = company.queue.then(() => this.deliver(companyId)).catch(this.onError);
    }
  }

  private startWatching(): void {
    if (this.watching || this.stopped) {
      return;
    }
    const watching = new AbortController();
    this.watching = watching;
    void this.watchLoop(watching.signal)
      .catch(this.onError)
      .finally(() => {
        if (this.watching === watching) {
          this.watching = undefined;
        }
        // A stream opened while the loop was ending: watch again.
        if (this.streamCount > 0 && !this.stopped) {
          this.startWatching();
        }
      });
  }

  private async watchLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.streamCount > 0) {
      const answer = await this.watch.watch(this.position, WATCH_SECONDS, signal);
      this.position = answer.position;
      // A reset (the first read, a replaced database) names no company: every company reads again.
      const changed = answer.reset ? [...this.companies.keys()] : answer.companies;
      for (const companyId of changed) {
        if (this.companies.has(companyId)) {
          this.schedule(companyId);
        }
      }
    }
  }

  /** Reads the company's events after the lowest cursor of its streams and gives each its new ones. */
  private async deliver(companyId: number): Promise<void> {
    for (;;) {
      const streams = [...(this.companies.get(companyId)?.streams ?? [])];
      if (streams.length === 0) {
        return;
      }
      const from = streams.reduce(
        (low, stream) => (stream.readThrough < low ? stream.readThrough : low),
        streams[0].readThrough,
      );
      const events = await this.source.eventsAfter(companyId, from.toString(), PAGE);
      for (const event of events) {
        const cursor = BigInt(event.cursor);
        for (const stream of streams) {
          if (stream.closed || cursor <= stream.readThrough) {
            continue;
          }
          stream.readThrough = cursor;
          if (matches(stream.filters, event) && !stream.sink.send(event)) {
            this.remove(stream);
            stream.sink.dropSlow();
          }
        }
      }
      if (events.length < PAGE) {
        return;
      }
    }
  }
}

function matches(filters: StreamFilters, event: StreamedEvent): boolean {
  return (
    (!filters.entities || filters.entities.has(event.entity)) &&
    (!filters.projectIds || (event.project_id !== null && filters.projectIds.has(event.project_id)))
  );
}
