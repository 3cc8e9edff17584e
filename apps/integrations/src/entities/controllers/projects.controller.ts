import { Body, Controller, Delete, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { ProjectResponseDto, DeletedProjectResponseDto } from '../dto/project.response.dto';
import { CreateProjectBody, UpdateProjectBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete, UnknownReference } from './entity-routes';

const DELETED =
  'main-api keeps projects (it has no project delete): the mapping is removed and the answer is the platform id';

/** `/v2/integrations/projects`: the operations interfaces.md lists for projects, by external id. */
@ApiTags('integrations: projects')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Projects)
export class ProjectsController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a project (client_id, brand_id, pm_id, contract_id: external ids)' })
  @ApiCreatedResponse({
    type: ProjectResponseDto,
    description: 'The platform project, its platform id in id',
  })
  @UnknownReference('client_id', 'brand_id', 'pm_id', 'contract_id')
  @DuplicateExternalId()
  create(@Body() body: CreateProjectBody, @Caller() caller: CallerContext): Promise<ProjectResponseDto> {
    return this.writes.create(IntegrationEntity.Projects, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a project by external id (only the fields sent)' })
  @ApiOkResponse({ type: ProjectResponseDto, description: 'The updated platform project' })
  @UnknownReference('client_id', 'brand_id', 'pm_id', 'contract_id')
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateProjectBody,
    @Caller() caller: CallerContext,
  ): Promise<ProjectResponseDto> {
    return this.writes.update(IntegrationEntity.Projects, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a project by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedProjectResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedProjectResponseDto> {
    return this.writes.remove(
      IntegrationEntity.Projects,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }
}
