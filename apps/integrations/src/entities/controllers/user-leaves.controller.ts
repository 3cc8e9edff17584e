import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { UserLeaveResponseDto } from '../dto/user-leave.response.dto';
import { CreateUserLeaveBody } from '../dto/entity-bodies.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, UnknownReference } from './entity-routes';

/** `/v2/integrations/user-leaves`: the operations interfaces.md lists for user leaves, by external id. */
@ApiTags('integrations: user-leaves')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.UserLeaves)
export class UserLeavesController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a leave of a user (userId: external id)',
    description: 'main-api refuses a leave that overlaps another of the same user (422, ZC003).',
  })
  @ApiCreatedResponse({
    type: UserLeaveResponseDto,
    description: 'The platform user leave, its platform id in id',
  })
  @UnknownReference('userId')
  @DuplicateExternalId()
  create(@Body() body: CreateUserLeaveBody, @Caller() caller: CallerContext): Promise<UserLeaveResponseDto> {
    return this.writes.create(IntegrationEntity.UserLeaves, body, caller);
  }
}
