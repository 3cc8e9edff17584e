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
import { MAIN_API_ENV, type MainApiEnv } from '../../config/main-api.env';
import { MAIN_API_ERROR_NAME } from '../../errors/main-api-error-code';
import { CursorExpiredError } from '../change-feed.errors';
import { ChangeEventDto } from '../dto/change-feed.dto';
import type { CreateStreamTicketDto, StreamTicketDto } from './dto/stream-ticket.dto';
import { StreamTicketInvalidError, TooManyStreamsError } from './event-streams.errors';
import { StreamTicketsRepository } from './stream-tickets.repository';

/**
 * main-api's change stream for browsers (issue 41): `GET /v1/events/stream?ticket=`, served by the
 * shared EventStreamServer over main-api's feed (GET /v1/events). Its logins are checked from the
 * ticket's claims (DatabaseTokenStatus needs no token), so its tickets keep no token.
 */
@Injectable()
export class EventStreamsService implements EventStreamBackend, OnModuleInit, BeforeApplicationShutdown {
  private readonly server: EventStreamServer;

  constructor(
    @Inject(MAIN_API_ENV) env: MainApiEnv,
    private readonly tickets: StreamTicketsRepository,
    principals: PrincipalContext,
    tokenStatus: TokenStatusSource,
    metrics: MetricsRegistry,
    watch: ChangedCompaniesWatch,
  ) {
    this.server = new EventStreamServer(this, {
      name: 'EventStreams',
      streamPath: '/v1/events/stream',
      settings: env,
      keepsToken: false,
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
    await this.tickets.issue({
      ticketHash: ticket.ticketHash,
      subject: ticket.subject,
      roleId: ticket.roleId,
      sessionId: ticket.sessionId,
      epoch: ticket.epoch,
      tokenId: ticket.tokenId,
      tokenExpiresAt: ticket.tokenExpiresAt,
      entities: ticket.entities,
      projectIds: ticket.projectIds,
      openBy: ticket.openBy,
      firstOpenedAt: null,
      heldUntil: null,
    });
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
    return new StreamTicketInvalidError();
  }

  tooManyStreams(cap: StreamCap, retryAfterSeconds: number): Error {
    return new TooManyStreamsError(cap, retryAfterSeconds);
  }

  /** The feed's 410 (CursorExpiredError), as the last event of a stream whose Last-Event-ID is past retention. */
  goneBody(prunedThrough: string): unknown {
    const error = new CursorExpiredError(prunedThrough);
    return { status: error.status, name: MAIN_API_ERROR_NAME, code: error.code, message: error.message };
  }
}
