import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { PrincipalContext, TokenStatusSource, type Principal } from '@platform/auth';
import { ChangedCompaniesWatch, EventStreamHub, type StreamedEvent } from '@platform/database';
import { MetricsRegistry, ServerSentEventStream } from '@platform/runtime';
import { Counter } from 'prom-client';
import { MAIN_API_ENV, type MainApiEnv } from '../../config/main-api.env';
import { MAIN_API_ERROR_NAME } from '../../errors/main-api-error-code';
import { CursorExpiredError } from '../change-feed.errors';
import { ChangeEventDto } from '../dto/change-feed.dto';
import type { CreateStreamTicketDto, StreamTicketDto } from './dto/stream-ticket.dto';
import { StreamTicketInvalidError } from './event-streams.errors';
import { StreamTicketsRepository, type ClaimedTicket } from './stream-tickets.repository';

/** How long a new ticket may wait before it opens its stream. */
const TICKET_SECONDS = 30;
/** `retry:`: the browser reconnects this soon after a stream ends (another replica, a new ticket). */
const RETRY_MS = 3000;

/** Why a stream ended, as its last event (`event: end`) says. */
type EndReason = 'revoked' | 'expired' | 'shutdown' | 'slow_consumer';

interface LiveStream {
  ticketHash: string;
  principal: Principal;
  tokenExpiresAt: number;
  events: ServerSentEventStream;
  close: (reason?: EndReason) => void;
}

/**
 * The change stream for browsers (issue 41): `GET /v1/events/stream?ticket=` as Server-Sent Events,
 * each event with `id:` = its feed cursor, so `EventSource`'s reconnect with `Last-Event-ID` resumes
 * exactly after the last one it got. One hub per replica reads the feed for all of them
 * (EventStreamHub); this replica's timers write the heartbeats and check every stream's login
 * together, one check per login.
 */
@Injectable()
export class EventStreamsService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventStreams');
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
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
    private readonly tickets: StreamTicketsRepository,
    private readonly principals: PrincipalContext,
    private readonly tokenStatus: TokenStatusSource,
    private readonly metrics: MetricsRegistry,
    watch: ChangedCompaniesWatch,
  ) {
    this.hub = new EventStreamHub(
      watch,
      {
        eventsAfter: async (companyId, after, limit) =>
          (await this.tickets.eventsAfter(companyId, after, limit)).map((event): StreamedEvent => ({
            cursor: event.id,
            entity: event.entity,
            project_id: event.projectId,
            data: ChangeEventDto.from(event),
          })),
      },
      (error) => this.logger.error({ err: error }, 'event stream delivery failed'),
    );
  }

  onModuleInit(): void {
    this.metrics.registry.registerMetric(this.sent);
    this.metrics.registry.registerMetric(this.dropped);
    this.metrics.registry.registerMetric(this.refused);
    this.metrics.gauge({
      name: 'event_streams_open',
      help: 'Event streams open on this replica',
      read: () => this.live.size,
    });
    this.heartbeat = setInterval(() => {
      for (const stream of this.live) {
        stream.events.comment('heartbeat');
      }
    }, this.env.EVENT_STREAM_HEARTBEAT_SECONDS * 1000);
    this.heartbeat.unref();
    this.checks = setInterval(() => void this.checkLogins(), this.env.EVENT_STREAM_CHECK_SECONDS * 1000);
    this.checks.unref();
  }

  /** SIGTERM: every stream ends now, so its browser reconnects (with Last-Event-ID) to another replica. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeat);
    clearInterval(this.checks);
    this.hub.stop();
    await Promise.all([...this.live].map((stream) => this.end(stream, 'shutdown')));
  }

  /** A ticket for the caller's token, its company and the filters, valid 30 s to open a stream. */
  async issue(body: CreateStreamTicketDto, authorization: string): Promise<StreamTicketDto> {
    const principal = this.principals.get();
    const ticket = randomBytes(32).toString('base64url');
    const openBy = new Date(Date.now() + TICKET_SECONDS * 1000);
    await this.tickets.issue({
      ticketHash: hashOf(ticket),
      subject: principal.subject,
      roleId: principal.roleId,
      sessionId: principal.sessionId ?? null,
      epoch: principal.epoch,
      tokenId: principal.tokenId,
      tokenExpiresAt: new Date(expiryOf(authorization) * 1000),
      entities: body.entities ?? null,
      projectIds: body.project_ids ?? null,
      openBy,
      firstOpenedAt: null,
      heldUntil: null,
    });
    return {
      ticket,
      expires_at: openBy.toISOString(),
      stream_url: `/v1/events/stream?ticket=${ticket}`,
    };
  }

  /**
   * Claims the ticket for a connection: refused (thrown, before anything is written) when it cannot
   * open a stream, its login was revoked, or a cap is reached. Answers how to start the stream on the
   * route's raw response, once the route has taken it over from Fastify.
   */
  async prepare(
    ticket: string,
    lastEventId: string | undefined,
  ): Promise<
    (
      response: ServerResponse,
      headers: Record<string, string | string[] | number | undefined>,
    ) => Promise<void>
  > {
    const claimed = await this.tickets.claim(hashOf(ticket));
    if (!claimed) {
      throw new StreamTicketInvalidError();
    }
    const principal = principalOf(claimed);
    let after: string | { prunedThrough: string };
    try {
      if (await this.tokenStatus.isRevoked(principal, '')) {
        throw new StreamTicketInvalidError();
      }
      this.assertRoom(claimed.company_id);
      after = await this.startingCursor(claimed.company_id, lastEventId);
    } catch (error) {
      await this.tickets.release(claimed.ticket_hash);
      throw error;
    }
    return async (response, headers) => {
      const events = new ServerSentEventStream(response, {
        retryMs: RETRY_MS,
        maxBufferedBytes: this.env.EVENT_STREAM_BUFFER_KIB * 1024,
        headers,
      });
      events.start();
      if (typeof after === 'object') {
        // The page asked for events the feed no longer keeps: it reads the state afresh instead.
        events.end({ event: 'gone', data: goneBody(after.prunedThrough) });
        await this.tickets.release(claimed.ticket_hash);
        return;
      }
      this.attach(claimed, principal, events, after, response);
    };
  }

  private attach(
    claimed: ClaimedTicket,
    principal: Principal,
    events: ServerSentEventStream,
    after: string,
    response: ServerResponse,
  ): void {
    let closeHub = (): void => undefined;
    const stream: LiveStream = {
      ticketHash: claimed.ticket_hash,
      principal,
      tokenExpiresAt: claimed.token_expires_at.getTime(),
      events,
      close: (reason) => {
        if (!this.live.delete(stream)) {
          return;
        }
        clearTimeout(expiry);
        closeHub();
        events.end(reason ? { event: 'end', data: { reason } } : undefined);
        void this.tickets.release(claimed.ticket_hash).catch(() => undefined);
      },
    };
    this.live.add(stream);
    // The token's end is the stream's: the page reconnects with a new ticket.
    const expiry = setTimeout(() => stream.close('expired'), Math.max(0, stream.tokenExpiresAt - Date.now()));
    expiry.unref();
    response.once('close', () => stream.close());
    closeHub = this.hub.open(
      claimed.company_id,
      after,
      {
        entities: claimed.entities ? new Set(claimed.entities) : undefined,
        projectIds: claimed.project_ids ? new Set(claimed.project_ids) : undefined,
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
      return this.tickets.latestCursor(companyId);
    }
    const prunedThrough = await this.tickets.prunedThrough(companyId);
    return prunedThrough !== undefined && BigInt(lastEventId) < BigInt(prunedThrough)
      ? { prunedThrough }
      : lastEventId;
  }

  private assertRoom(companyId: number): void {
    const companyStreams = [...this.live].filter((stream) => stream.principal.companyId === companyId).length;
    const cap =
      this.live.size >= this.env.EVENT_STREAMS_PER_REPLICA
        ? 'replica'
        : companyStreams >= this.env.EVENT_STREAMS_PER_COMPANY
          ? 'company'
          : undefined;
    if (cap) {
      this.refused.inc({ cap });
      throw new HttpException(
        {
          message: `TooManyStreams: ${cap === 'replica' ? 'this replica' : 'your company'} has as many event streams open as it may; retry shortly`,
          retryAfterSeconds: 5,
        },
        HttpStatus.SERVICE_UNAVAILABLE,
      );
    }
  }

  /** Every stream's login, one check per login: a revoked one ends its streams; the rest hold on. */
  private async checkLogins(): Promise<void> {
    const byLogin = new Map<string, LiveStream[]>();
    for (const stream of this.live) {
      const key = `${stream.principal.companyId}:${stream.principal.subject}:${stream.principal.sessionId ?? ''}:${stream.principal.epoch}`;
      byLogin.set(key, [...(byLogin.get(key) ?? []), stream]);
    }
    for (const streams of byLogin.values()) {
      try {
        if (await this.tokenStatus.isRevoked(streams[0].principal, '')) {
          await Promise.all(streams.map((stream) => this.end(stream, 'revoked')));
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'could not check a stream login; checking again next time');
      }
    }
    await this.tickets
      .renew([...this.live].map((stream) => stream.ticketHash))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not renew the stream tickets'));
  }

  private async end(stream: LiveStream, reason: EndReason): Promise<void> {
    stream.close(reason);
    await this.tickets.release(stream.ticketHash).catch(() => undefined);
  }
}

function hashOf(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/** The token's `exp`: the guard verified it in this very request. */
function expiryOf(authorization: string): number {
  const payload = authorization.replace(/^Bearer\s+/i, '').split('.')[1] ?? '';
  const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
  return typeof exp === 'number' ? exp : Math.floor(Date.now() / 1000);
}

function principalOf(ticket: ClaimedTicket): Principal {
  const [kind, id] = ticket.subject.split(':');
  return {
    subject: ticket.subject,
    companyId: ticket.company_id,
    roleId: ticket.role_id,
    ...(kind === 'user' ? { userId: Number(id) } : { clientId: Number(id) }),
    tokenId: ticket.token_id,
    ...(ticket.session_id ? { sessionId: ticket.session_id } : {}),
    epoch: ticket.epoch,
  };
}

/** The feed's 410 (CursorExpiredError), as the last event of a stream whose Last-Event-ID is past retention. */
function goneBody(prunedThrough: string) {
  const error = new CursorExpiredError(prunedThrough);
  return { status: error.status, name: MAIN_API_ERROR_NAME, code: error.code, message: error.message };
}
