import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiGoneResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Permission, Public, RequirePermission, SERVICE_SIGNATURE_HEADER } from '@platform/auth';
import type { FastifyReply } from 'fastify';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ChangeFeedService } from './change-feed.service';
import { ChangeFeedQueryDto } from '@platform/contracts';
import { ChangeFeedPageDto } from './dto/change-feed.dto';
import { ChangeFeedWatchDto, ChangeFeedWatchQueryDto } from './dto/change-feed-watch.dto';
import { ChangeFeedWatchService } from './watch/change-feed-watch.service';
import { IntegrationsServiceGuard } from './watch/integrations-service.guard';

@ApiTags('events')
@Controller('events')
export class ChangeFeedController {
  constructor(
    private readonly feed: ChangeFeedService,
    private readonly watcher: ChangeFeedWatchService,
  ) {}

  @Get()
  @RequirePermission(Permission.UseIntegrations)
  @ApiOperation({
    summary: 'The change feed: creates, updates and deletes of the company, in order (roles 1-2)',
    description:
      'Every create, update and delete of brands, clients, contracts (and their users), positions, position ' +
      'categories, projects (and their estimate lines), teams (and their users), users, user leaves, workspaces ' +
      'and working time, written in the same transaction as the change. Read with `after` = the previous ' +
      '`next_cursor`; a page never holds a cursor lower than one already returned. Deletes are tombstones ' +
      '(kind deleted). Changes made through the integrations service carry their source in `origin`. Events ' +
      'are kept EVENTS_RETENTION_DAYS (30 by default); a cursor older than that answers 410.',
  })
  @ApiOkResponse({ type: ChangeFeedPageDto })
  @ApiGoneResponse({
    type: MainApiErrorBodyDto,
    description: 'CursorExpiredError: events after this cursor were pruned; read again from after=0',
  })
  page(@Query() query: ChangeFeedQueryDto): Promise<ChangeFeedPageDto> {
    return this.feed.page(query);
  }

  // No bearer token: the caller is the integrations service itself, for every company at once.
  @Get('watch')
  @Public()
  @UseGuards(IntegrationsServiceGuard)
  @ApiOperation({
    summary: 'Which companies have new change events (the integrations service only; a long poll)',
    description:
      'For the integrations service, signed as itself (X-Service-Signature under CHANGE_ORIGIN_KEY), not for a ' +
      'company: answers the ids of the companies with events committed after `after`, and the position to ' +
      'pass next. With none it waits up to `wait` seconds and is woken by the first commit that appends ' +
      "events. It never answers events: each company feed is still read with that company's own token.",
  })
  @ApiHeader({
    name: SERVICE_SIGNATURE_HEADER,
    required: true,
    description: '`integrations.<unix seconds>.<base64url HMAC-SHA256>` (libs/auth service-signature.ts)',
  })
  @ApiOkResponse({ type: ChangeFeedWatchDto })
  @ApiUnauthorizedResponse({
    type: MainApiErrorBodyDto,
    description: 'The caller is not the integrations service (signature missing, stale or wrong)',
  })
  watch(
    @Query() query: ChangeFeedWatchQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ChangeFeedWatchDto> {
    // The connection closing before the answer is written: the caller gave up (or stopped).
    const abandoned = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) {
        abandoned.abort();
      }
    });
    return this.watcher.watch(query.after, query.wait, abandoned.signal);
  }
}
