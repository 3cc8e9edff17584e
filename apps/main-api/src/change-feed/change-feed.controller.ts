import { Controller, Get, Query } from '@nestjs/common';
import { ApiGoneResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ChangeFeedService } from './change-feed.service';
import { ChangeFeedPageDto, ChangeFeedQueryDto } from './dto/change-feed.dto';

@ApiTags('events')
@Controller('events')
export class ChangeFeedController {
  constructor(private readonly feed: ChangeFeedService) {}

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
}
