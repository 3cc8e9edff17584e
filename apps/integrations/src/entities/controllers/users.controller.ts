import { Body, Controller, Delete, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { UserResponseDto, DeletedUserResponseDto } from '../dto/user.response.dto';
import { AssignPositionBody, CreateUserBody, UpdateUserBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete, UnknownReference } from './entity-routes';

const DELETED = 'The deleted platform user; only its id if main-api no longer had it';

/** `/v2/integrations/users`: the operations interfaces.md lists for users, by external id. */
@ApiTags('integrations: users')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Users)
export class UsersController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (user_position_id: external id)' })
  @ApiCreatedResponse({ type: UserResponseDto, description: 'The platform user, its platform id in id' })
  @UnknownReference('user_position_id')
  @DuplicateExternalId()
  create(@Body() body: CreateUserBody, @Caller() caller: CallerContext): Promise<UserResponseDto> {
    return this.writes.create(IntegrationEntity.Users, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a user by external id (only the fields sent)' })
  @ApiOkResponse({ type: UserResponseDto, description: 'The updated platform user' })
  @UnknownReference('user_position_id')
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateUserBody,
    @Caller() caller: CallerContext,
  ): Promise<UserResponseDto> {
    return this.writes.update(IntegrationEntity.Users, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a user by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedUserResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedUserResponseDto> {
    return this.writes.remove(
      IntegrationEntity.Users,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }

  @Put(':external_id/position')
  @ApiOperation({ summary: 'Assign a position (external id) to a user' })
  @ApiOkResponse({ type: UserResponseDto, description: 'The updated platform user' })
  @UnknownReference('position_id')
  @ExternalIdNotFound()
  assignPosition(
    @Param() params: ExternalIdParamsDto,
    @Body() body: AssignPositionBody,
    @Caller() caller: CallerContext,
  ): Promise<UserResponseDto> {
    return this.writes.assignPosition(params.external_id, body, caller);
  }
}
