import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { TeamResponseDto } from '../dto/team.response.dto';
import { CreateTeamBody, UpdateTeamBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalUsersDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, UnknownReference } from './entity-routes';

/** `/v2/integrations/teams`: the operations interfaces.md lists for teams, by external id. */
@ApiTags('integrations: teams')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Teams)
export class TeamsController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a team' })
  @ApiCreatedResponse({ type: TeamResponseDto, description: 'The platform team, its platform id in id' })
  @DuplicateExternalId()
  create(@Body() body: CreateTeamBody, @Caller() caller: CallerContext): Promise<TeamResponseDto> {
    return this.writes.create(IntegrationEntity.Teams, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a team by external id (only the fields sent)' })
  @ApiOkResponse({ type: TeamResponseDto, description: 'The updated platform team' })
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateTeamBody,
    @Caller() caller: CallerContext,
  ): Promise<TeamResponseDto> {
    return this.writes.update(IntegrationEntity.Teams, params.external_id, body, caller);
  }

  @Post(':external_id/users')
  @HttpCode(200)
  @ApiOperation({ summary: 'Attach users to a team (external user ids)' })
  @ApiOkResponse({ type: TeamResponseDto, description: 'The platform team with its users' })
  @UnknownReference('users')
  @ExternalIdNotFound()
  attachUsers(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalUsersDto,
    @Caller() caller: CallerContext,
  ): Promise<TeamResponseDto> {
    return this.writes.changeUsers(IntegrationEntity.Teams, params.external_id, body, 'POST', caller);
  }

  @Delete(':external_id/users')
  @HttpCode(200)
  @ApiOperation({ summary: 'Detach users from a team (external user ids)' })
  @ApiOkResponse({ type: TeamResponseDto, description: 'The platform team with its users' })
  @UnknownReference('users')
  @ExternalIdNotFound()
  detachUsers(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalUsersDto,
    @Caller() caller: CallerContext,
  ): Promise<TeamResponseDto> {
    return this.writes.changeUsers(IntegrationEntity.Teams, params.external_id, body, 'DELETE', caller);
  }
}
