import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiGoneResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, Public, RequirePermission } from '@platform/auth';
import {
  ChangeFeedQueryDto,
  ChangeFeedWatchDto,
  ChangeFeedWatchQueryDto,
  ApiChangeFeedWatch,
} from '@platform/contracts';
import { ChangedCompaniesWatch } from '@platform/database';
import type { FastifyReply } from 'fastify';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { ChangeFeedService } from './change-feed.service';
import { ChangeFeedPageDto } from './dto/change-feed.dto';
import { IntegrationsServiceGuard } from './watch/integrations-service.guard';

@ApiTags('events')
@Controller('v2/events')
export class ChangeFeedController {
  constructor(
    private readonly feed: ChangeFeedService,
    private readonly watcher: ChangedCompaniesWatch,
  ) {}

  @Get()
  @ApiBearerAuth()
  @RequirePermission(Permission.UseIntegrations)
  @ApiOperation({
    summary:
      "The planner's change feed: creates, updates and deletes of the company's allocations, in order (roles 1-2)",
    description:
      'Written in the same transaction as the change, through any route (the interface, `/v2`, batches). Read ' +
      'with `after` = the previous `next_cursor`; a page never holds a cursor lower than one already returned. ' +
      'Deletes are tombstones (kind deleted). Events are kept EVENTS_RETENTION_DAYS (30 by default); a cursor ' +
      'older than that answers 410 CursorExpiredError.',
  })
  @ApiOkResponse({ type: ChangeFeedPageDto })
  @ApiGoneResponse({
    type: PlannerErrorBodyDto,
    description: 'CursorExpiredError: events after this cursor were pruned; read again from after=0',
  })
  page(@Query() query: ChangeFeedQueryDto): Promise<ChangeFeedPageDto> {
    return this.feed.page(query);
  }

  // No bearer token: the caller is the integrations service itself, for every company at once.
  @Get('watch')
  @Public()
  @UseGuards(IntegrationsServiceGuard)
  @ApiChangeFeedWatch('planner events', PlannerErrorBodyDto)
  watch(
    @Query() query: ChangeFeedWatchQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ChangeFeedWatchDto> {
    return this.watcher.answer(query, reply.raw);
  }
}
