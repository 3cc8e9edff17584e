import { Body, Controller, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { WorkspaceResponseDto } from '../dto/workspace.response.dto';
import { CreateWorkspaceBody, UpdateWorkspaceBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound } from './entity-routes';

/** `/v2/integrations/workspaces`: the operations interfaces.md lists for workspaces, by external id. */
@ApiTags('integrations: workspaces')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Workspaces)
export class WorkspacesController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a workspace' })
  @ApiCreatedResponse({
    type: WorkspaceResponseDto,
    description: 'The platform workspace, its platform id in id',
  })
  @DuplicateExternalId()
  create(@Body() body: CreateWorkspaceBody, @Caller() caller: CallerContext): Promise<WorkspaceResponseDto> {
    return this.writes.create(IntegrationEntity.Workspaces, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a workspace by external id (only the fields sent)' })
  @ApiOkResponse({ type: WorkspaceResponseDto, description: 'The updated platform workspace' })
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateWorkspaceBody,
    @Caller() caller: CallerContext,
  ): Promise<WorkspaceResponseDto> {
    return this.writes.update(IntegrationEntity.Workspaces, params.external_id, body, caller);
  }
}
