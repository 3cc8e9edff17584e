import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CallerAuthorization, Permission, Public, RequirePermission } from '@platform/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MainApiErrorBodyDto } from '../../errors/main-api-error-body.dto';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import { CreateStreamTicketDto, EventStreamQueryDto, StreamTicketDto } from './dto/stream-ticket.dto';
import { EventStreamsService } from './event-streams.service';

/** The company's changes pushed to browsers (issue 41): a ticket, then the Server-Sent Events stream. */
@ApiTags('events')
@Controller('events')
export class EventStreamsController {
  constructor(private readonly streams: EventStreamsService) {}

  @Post('stream-tickets')
  @Idempotent()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      'A ticket that opens the change stream from a browser (EventSource sends no Authorization header)',
    description:
      "Bound to the token's company, user and login and to the filters; open the stream within 30 s. The " +
      "browser's own reconnects of that stream may present it again (with Last-Event-ID) until the token expires; " +
      'one connection at a time.',
  })
  @ApiCreatedResponse({ type: StreamTicketDto })
  issue(
    @Body() body: CreateStreamTicketDto,
    @CallerAuthorization() authorization: string,
  ): Promise<StreamTicketDto> {
    return this.streams.issue(body, authorization);
  }

  // No bearer token: EventSource cannot send one. The ticket stands for it.
  @Get('stream')
  @Public()
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: "The last event's id (EventSource sends it when it reconnects): the stream resumes after it",
  })
  @ApiOperation({
    summary: "The company's changes as Server-Sent Events, resumable with Last-Event-ID",
    description:
      'Each change event of the feed (GET /v1/events), as it commits: `id:` is its cursor, `data:` the event. ' +
      'EventSource reconnects by itself (`retry:` 3 s) sending Last-Event-ID, and the stream resumes right ' +
      'after it; without it, the stream starts with the next change. A Last-Event-ID past retention gets ' +
      "`event: gone` (the feed's 410 body) and the end. A comment line every 15 s keeps proxies from closing " +
      'it. The stream ends with `event: end` {reason}: `revoked` (the login was revoked; checked every 30 s), ' +
      '`expired` (the token expired: open a new ticket), `shutdown` (the replica stops; reconnect), ' +
      '`slow_consumer` (more than the bound left unread), `unverified` (the login could not be checked for two ' +
      'intervals; reconnect).',
  })
  @ApiOkResponse({
    description: 'text/event-stream',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiUnauthorizedResponse({ type: MainApiErrorBodyDto, description: 'StreamTicketInvalid (AC005)' })
  @ApiServiceUnavailableResponse({
    type: MainApiErrorBodyDto,
    description: 'TooManyStreams: the company or this replica has its cap of open streams; Retry-After',
  })
  async stream(
    @Query() query: EventStreamQueryDto,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lastEventId = request.headers['last-event-id'];
    // EventSource's own reconnect sends Last-Event-ID; a new EventSource may name where to start.
    const start = await this.streams.prepare(
      query.ticket,
      typeof lastEventId === 'string' ? lastEventId : query.after,
    );
    // Headers set so far (CORS, the request id) go out with the stream's own.
    const headers = reply.getHeaders();
    // Written by the stream from now on, not by Fastify.
    reply.hijack();
    await start(reply.raw, headers);
  }
}
