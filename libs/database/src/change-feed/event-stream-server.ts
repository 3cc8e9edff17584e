import type { ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import type { Principal, PrincipalContext, TokenStatusSource } from '@platform/auth';
import { ServerSentEventStream, type MetricsRegistry } from '@platform/runtime';
import { Counter } from 'prom-client';
import type { ChangedCompaniesWatch } from './changed-companies-watch';
import { EventStreamHub } from './event-stream-hub';
import type { EventStreamTicketsRepository } from './event-stream-tickets.repository';
import type {
  ClaimedStreamTicket,
  EventStreamBackend,
  StreamCap,
  StreamEndReason,
} from './event-stream-backend';
import type { EventStreamSettings } from './event-stream-settings';
import { hashOfStreamTicket, newStreamTicket, openSealedToken, sealToken } from './stream-tickets';

/** How long a new ticket may wait before it opens its stream. */
const TICKET_SECONDS = 30;
/** `retry:`: the browser reconnects this soon after a stream ends (another replica, a new ticket). */
const RETRY_MS = 3000;
/** What a stream refused for a cap is told to wait. */
const RETRY_AFTER_SECONDS = 5;

export interface EventStreamServerOptions {
  /** The logger's context. */
  name: string;
  /** The stream's route, e.g. `/v1/events/stream`: the ticket's `stream_url` starts with it. */
  streamPath: string;
  settings: EventStreamSettings;
  /**
   * Whether the stream's login checks need the token's text (a `RemoteTokenStatus` asks main-api
   * with it): the ticket then keeps the token, sealed with the ticket itself.
   */
  keepsToken: boolean;
  watch: ChangedCompaniesWatch;
  /** The service's `event_stream_tickets`: claims, renewals and releases, and its feed's cursors. */
  tickets: EventStreamTicketsRepository;
  principals: PrincipalContext;
  tokenStatus: TokenStatusSource;
  metrics: MetricsRegistry;
}

/** `POST …/events/stream-tickets`'s answer. */
export interface StreamTicketAnswer {
  ticket: string;
  expires_at: string;
  stream_url: string;
}

/** Starts a claimed stream on the route's raw response, once the route has taken it over. */
export type StartEventStream = (
  response: ServerResponse,
  headers: Record<string, string | string[] | number | undefined>,
) => Promise<void>;

interface LiveStream {
  ticketHash: string;
  principal: Principal;
  /** When its login was last confirmed live (its opening, then each check): Date.now(). */
  confirmedAt: number;
  /** The token, for the login checks of a server that keeps tokens; '' otherwise. */
  token: string;
  tokenExpiresAt: number;
  events: ServerSentEventStream;
  close: (reason?: StreamEndReason) => void;
}

/**
 * A service's change stream for browsers (issue 41): tickets, then Server-Sent Events, each event
 * with `id:` = its feed cursor, so `EventSource`'s reconnect with `Last-Event-ID` resumes exactly
 * after the last one it got. One hub per replica reads the feed for all of them (EventStreamHub);
 * this replica's timers write the heartbeats and check every stream's login together, in one
 * question. Everything of a service's own comes from its tickets repository (the shared statements on
 * its schema's `event_stream_tickets`) and its EventStreamBackend (how it stores a ticket, its event
 * shape, its errors).
 */
export class EventStreamServer {
  private readonly logger: Logger;
  private readonly hub: EventStreamHub;
  private readonly live = new Set<LiveStream>();
  private heartbeat?: NodeJS.Timeout;
  private checks?: NodeJS.Timeout;
  private readonly sent = new Counter({
    name: 'event_stream_events_sent_total',
    help: 'Change events written to open event streams',
    registers: [],
  });
  private readonly dropped = new Counter({
    name: 'event_stream_slow_consumers_dropped_total',
    help: 'Event streams closed because their consumer left more than EVENT_STREAM_BUFFER_KIB unread',
    registers: [],
  });
  private readonly refused = new Counter({
    name: 'event_stream_refused_total',
    help: 'Event streams refused with 503 because a company or the replica had its cap open',
    labelNames: ['cap'] as const,
    registers: [],
  });

  constructor(
    private readonly backend: EventStreamBackend,
    private readonly options: EventStreamServerOptions,
  ) {
    this.logger = new Logger(options.name);
    this.hub = new EventStreamHub(
      options.watch,
      { eventsAfter: (companyId, after, limit) => this.backend.eventsAfter(companyId, after, limit) },
      (error) => this.logger.error({ err: error }, 'event stream delivery failed'),
    );
  }

  /** At boot: the metrics, the heartbeat and the login checks. */
  start(): void {
    const { metrics, settings } = this.options;
    metrics.registry.registerMetric(this.sent);
    metrics.registry.registerMetric(this.dropped);
    metrics.registry.registerMetric(this.refused);
    metrics.gauge({
      name: 'event_streams_open',
      help: 'Event streams open on this replica',
      read: () => this.live.size,
    });
    this.heartbeat = setInterval(() => {
      for (const stream of this.live) {
        stream.events.comment('heartbeat');
      }
    }, settings.EVENT_STREAM_HEARTBEAT_SECONDS * 1000);
    this.heartbeat.unref();
    this.checks = setInterval(() => void this.checkLogins(), settings.EVENT_STREAM_CHECK_SECONDS * 1000);
    this.checks.unref();
  }

  /** SIGTERM: every stream ends now, so its browser reconnects (with Last-Event-ID) to another replica. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    clearInterval(this.checks);
    this.hub.stop();
    await Promise.all([...this.live].map((stream) => this.end(stream, 'shutdown')));
  }

  /** A ticket for the caller's token, its company and the filters, valid 30 s to open a stream. */
  async issue(
    filters: { entities?: string[]; project_ids?: number[] },
    authorization: string,
  ): Promise<StreamTicketAnswer> {
    const principal = this.options.principals.get();
    const ticket = newStreamTicket();
    const token = authorization.replace(/^Bearer\s+/i, '');
    const openBy = new Date(Date.now() + TICKET_SECONDS * 1000);
    await this.backend.saveTicket({
      ticketHash: hashOfStreamTicket(ticket),
      subject: principal.subject,
      roleId: principal.roleId,
      sessionId: principal.sessionId ?? null,
      epoch: principal.epoch,
      tokenId: principal.tokenId,
      tokenExpiresAt: new Date(expiryOf(token) * 1000),
      entities: filters.entities ?? null,
      projectIds: filters.project_ids ?? null,
      openBy,
      sealedToken: this.options.keepsToken ? sealToken(ticket, token) : null,
    });
    return {
      ticket,
      expires_at: openBy.toISOString(),
      stream_url: `${this.options.streamPath}?ticket=${ticket}`,
    };
  }

  /**
   * Claims the ticket for a connection: refused (thrown, before anything is written) when it cannot
   * open a stream, its login was revoked, or a cap is reached. Answers how to start the stream on the
   * route's raw response, once the route has taken it over from Fastify.
   */
  async prepare(ticket: string, lastEventId: string | undefined): Promise<StartEventStream> {
    const { settings } = this.options;
    // The replica's cap is its own; the company's counts the tickets held on every replica.
    if (this.live.size >= settings.EVENT_STREAMS_PER_REPLICA) {
      throw this.refuse('replica');
    }
    const claimed = await this.options.tickets.claim(
      hashOfStreamTicket(ticket),
      settings.EVENT_STREAMS_PER_COMPANY,
    );
    if (claimed === 'company-cap') {
      throw this.refuse('company');
    }
    if (!claimed) {
      throw this.backend.ticketInvalid();
    }
    const principal = principalOf(claimed);
    let token: string;
    let after: string | { prunedThrough: string };
    try {
      token = this.tokenOf(ticket, claimed);
      if (await this.options.tokenStatus.isRevoked(principal, token)) {
        throw this.backend.ticketInvalid();
      }
      after = await this.startingCursor(claimed.companyId, lastEventId);
    } catch (error) {
      await this.options.tickets.release(claimed.ticketHash);
      throw error;
    }
    return async (response, headers) => {
      const events = new ServerSentEventStream(response, {
        retryMs: RETRY_MS,
        maxBufferedBytes: this.options.settings.EVENT_STREAM_BUFFER_KIB * 1024,
        headers,
      });
      events.start();
      if (typeof after === 'object') {
        // The page asked for events the feed no longer keeps: it reads the state afresh instead.
        events.end({ event: 'gone', data: this.backend.goneBody(after.prunedThrough) });
        await this.options.tickets.release(claimed.ticketHash);
        return;
      }
      this.attach(claimed, principal, token, events, after, response);
    };
  }

  /** The token the ticket was issued for, when this server keeps tokens; '' otherwise. */
  private tokenOf(ticket: string, claimed: ClaimedStreamTicket): string {
    if (!this.options.keepsToken) {
      return '';
    }
    const token = claimed.sealedToken ? openSealedToken(ticket, claimed.sealedToken) : undefined;
    if (token === undefined) {
      throw this.backend.ticketInvalid();
    }
    return token;
  }

  private attach(
    claimed: ClaimedStreamTicket,
    principal: Principal,
    token: string,
    events: ServerSentEventStream,
    after: string,
    response: ServerResponse,
  ): void {
    let closeHub = (): void => undefined;
    const stream: LiveStream = {
      ticketHash: claimed.ticketHash,
      principal,
      token,
      tokenExpiresAt: claimed.tokenExpiresAt.getTime(),
      // prepare() has just checked its login.
      confirmedAt: Date.now(),
      events,
      close: (reason) => {
        if (!this.live.delete(stream)) {
          return;
        }
        clearTimeout(expiry);
        closeHub();
        events.end(reason ? { event: 'end', data: { reason } } : undefined);
        void this.options.tickets.release(claimed.ticketHash).catch(() => undefined);
      },
    };
    this.live.add(stream);
    // The token's end is the stream's: the page reconnects with a new ticket.
    const expiry = setTimeout(() => stream.close('expired'), Math.max(0, stream.tokenExpiresAt - Date.now()));
    expiry.unref();
    response.once('close', () => stream.close());
    closeHub = this.hub.open(
      claimed.companyId,
      after,
      {
        entities: claimed.entities ? new Set(claimed.entities) : undefined,
        projectIds: claimed.projectIds ? new Set(claimed.projectIds) : undefined,
      },
      {
        send: (event) => {
          this.sent.inc();
          return events.send(event.cursor, event.data);
        },
        dropSlow: () => {
          this.dropped.inc();
          stream.close('slow_consumer');
        },
      },
    );
  }

  /**
   * After the page's Last-Event-ID (without one, after the newest event: only what comes next), or
   * what was pruned when the Last-Event-ID is past retention.
   */
  private async startingCursor(
    companyId: number,
    lastEventId: string | undefined,
  ): Promise<string | { prunedThrough: string }> {
    if (lastEventId === undefined || !/^\d{1,18}$/.test(lastEventId)) {
      return this.options.tickets.latestCursor(companyId);
    }
    const prunedThrough = await this.options.tickets.prunedThrough(companyId);
    return prunedThrough !== undefined && BigInt(lastEventId) < BigInt(prunedThrough)
      ? { prunedThrough }
      : lastEventId;
  }

  private refuse(cap: StreamCap): Error {
    this.refused.inc({ cap });
    return this.backend.tooManyStreams(cap, RETRY_AFTER_SECONDS);
  }

  /**
   * Every stream's login, all in one question to the token status (per token where the check needs
   * the token): a revoked one ends its streams; the rest hold on, and their tickets with them. One
   * statement (main-api) or one request (the planner) for the whole replica, and none without streams.
   * When the question cannot be answered, streams whose login was confirmed within two intervals go
   * on; older ones end (`unverified`), as the request guard fails closed: a revoked login must not
   * keep a stream open for as long as main-api is unreachable.
   */
  private async checkLogins(): Promise<void> {
    const byLogin = new Map<string, LiveStream[]>();
    for (const stream of this.live) {
      const { companyId, subject, sessionId, epoch, tokenId } = stream.principal;
      const key = `${companyId}:${subject}:${sessionId ?? ''}:${epoch}:${this.options.keepsToken ? tokenId : ''}`;
      const streams = byLogin.get(key);
      if (streams) {
        streams.push(stream);
      } else {
        byLogin.set(key, [stream]);
      }
    }
    const logins = [...byLogin.values()];
    if (logins.length > 0) {
      const askedAt = Date.now();
      try {
        const revoked = await this.options.tokenStatus.revokedAmong(
          logins.map(([first]) => ({ principal: first.principal, token: first.token })),
        );
        const ending: Promise<void>[] = [];
        logins.forEach((streams, index) => {
          for (const stream of streams) {
            if (revoked[index]) {
              ending.push(this.end(stream, 'revoked'));
            } else {
              stream.confirmedAt = askedAt;
            }
          }
        });
        await Promise.all(ending);
      } catch (error) {
        this.logger.warn({ err: error }, 'could not check the stream logins; checking again next time');
        const oldest = askedAt - 2 * this.options.settings.EVENT_STREAM_CHECK_SECONDS * 1000;
        await Promise.all(
          logins
            .flat()
            .flatMap((stream) => (stream.confirmedAt < oldest ? [this.end(stream, 'unverified')] : [])),
        );
      }
    }
    await this.options.tickets
      .renew([...this.live].map((stream) => stream.ticketHash))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not renew the stream tickets'));
  }

  private async end(stream: LiveStream, reason: StreamEndReason): Promise<void> {
    stream.close(reason);
    await this.options.tickets.release(stream.ticketHash).catch(() => undefined);
  }
}

/** The token's `exp`: the guard verified it in this very request. */
function expiryOf(token: string): number {
  const payload = token.split('.')[1] ?? '';
  const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
  return typeof exp === 'number' ? exp : Math.floor(Date.now() / 1000);
}

function principalOf(ticket: ClaimedStreamTicket): Principal {
  const [kind, id] = ticket.subject.split(':');
  return {
    subject: ticket.subject,
    companyId: ticket.companyId,
    roleId: ticket.roleId,
    ...(kind === 'user' ? { userId: Number(id) } : { clientId: Number(id) }),
    tokenId: ticket.tokenId,
    ...(ticket.sessionId ? { sessionId: ticket.sessionId } : {}),
    epoch: ticket.epoch,
  };
}
