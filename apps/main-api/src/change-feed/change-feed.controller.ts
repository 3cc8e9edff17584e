import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiGoneResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, Public, RequirePermission } from '@platform/auth';
import type { FastifyReply } from 'fastify';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ChangeFeedService } from './change-feed.service';
import {
  ChangeFeedQueryDto,
  ChangeFeedWatchDto,
  ChangeFeedWatchQueryDto,
  ApiChangeFeedWatch,
} from '@platform/contracts';
import { ChangedCompaniesWatch } from '@platform/database';
import { ChangeFeedPageDto } from './dto/change-feed.dto';
import { IntegrationsServiceGuard } from './watch/integrations-service.guard';

@ApiTags('events')
@Controller('events')
export class ChangeFeedController {
  constructor(
    private readonly feed: ChangeFeedService,
    private readonly watcher: ChangedCompaniesWatch,
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
  @ApiChangeFeedWatch('change events', MainApiErrorBodyDto)
  watch(
    @Query() query: ChangeFeedWatchQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ChangeFeedWatchDto> {
    return this.watcher.answer(query, reply.raw);
  }
}
