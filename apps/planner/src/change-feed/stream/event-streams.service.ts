import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PrincipalContext, TokenStatusSource } from '@platform/auth';
import {
  ChangedCompaniesWatch,
  EventStreamServer,
  type EventStreamBackend,
  type NewStreamTicket,
  type StartEventStream,
  type StreamCap,
  type StreamedEvent,
} from '@platform/database';
import { MetricsRegistry } from '@platform/runtime';
import { PLANNER_ENV, type PlannerEnv } from '../../config/planner.env';
import { cursorExpired } from '../change-feed.errors';
import { ChangeEventDto } from '../dto/change-feed.dto';
import type { CreateStreamTicketDto, StreamTicketDto } from './dto/stream-ticket.dto';
import { streamTicketInvalid, TooManyStreamsError } from './event-streams.errors';
import { StreamTicketsRepository } from './stream-tickets.repository';

/**
 * The planner's change stream for browsers (issue 41): `GET /v2/events/stream?ticket=`, served by
 * the shared EventStreamServer over the planner's feed (GET /v2/events). Its logins are checked by
 * asking main-api with the token (RemoteTokenStatus), so its tickets keep the token, sealed with the
 * ticket.
 */
@Injectable()
export class EventStreamsService implements EventStreamBackend, OnModuleInit, BeforeApplicationShutdown {
  private readonly server: EventStreamServer;

  constructor(
    @Inject(PLANNER_ENV) env: PlannerEnv,
    private readonly tickets: StreamTicketsRepository,
    principals: PrincipalContext,
    tokenStatus: TokenStatusSource,
    metrics: MetricsRegistry,
    watch: ChangedCompaniesWatch,
  ) {
    this.server = new EventStreamServer(this, {
      name: 'EventStreams',
      streamPath: '/v2/events/stream',
      settings: env,
      keepsToken: true,
      watch,
      tickets,
      principals,
      tokenStatus,
      metrics,
    });
  }

  onModuleInit(): void {
    this.server.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.server.close();
  }

  issue(body: CreateStreamTicketDto, authorization: string): Promise<StreamTicketDto> {
    return this.server.issue(body, authorization);
  }

  prepare(ticket: string, lastEventId: string | undefined): Promise<StartEventStream> {
    return this.server.prepare(ticket, lastEventId);
  }

  async saveTicket(ticket: NewStreamTicket): Promise<void> {
    if (!ticket.sealedToken) {
      throw new Error('a planner stream ticket keeps its token');
    }
    await this.tickets.issue({ ...ticket, sealedToken: ticket.sealedToken });
  }

  async eventsAfter(companyId: number, after: string, limit: number): Promise<StreamedEvent[]> {
    return (await this.tickets.eventsAfter(companyId, after, limit)).map((event) => ({
      cursor: event.id,
      entity: event.entity,
      project_id: event.projectId,
      data: ChangeEventDto.from(event),
    }));
  }

  ticketInvalid(): Error {
    return streamTicketInvalid();
  }

  tooManyStreams(cap: StreamCap, retryAfterSeconds: number): Error {
    return new TooManyStreamsError(cap, retryAfterSeconds);
  }

  /** GET /v2/events's 410 body (CursorExpiredError), as the last event of a stream past retention. */
  goneBody(prunedThrough: string): unknown {
    const error = cursorExpired(prunedThrough);
    return { error: error.errorName, message: error.message };
  }
}
