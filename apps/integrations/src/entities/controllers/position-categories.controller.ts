import { Body, Controller, Delete, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import {
  PositionCategoryResponseDto,
  DeletedPositionCategoryResponseDto,
} from '../dto/position-category.response.dto';
import { CreatePositionCategoryBody, UpdatePositionCategoryBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete } from './entity-routes';

const DELETED = 'The deleted platform position category; only its id if main-api no longer had it';

/** `/v2/integrations/position-categories`: the operations interfaces.md lists for position categorys, by external id. */
@ApiTags('integrations: position-categories')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.PositionCategories)
export class PositionCategoriesController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a position category' })
  @ApiCreatedResponse({
    type: PositionCategoryResponseDto,
    description: 'The platform position category, its platform id in id',
  })
  @DuplicateExternalId()
  create(
    @Body() body: CreatePositionCategoryBody,
    @Caller() caller: CallerContext,
  ): Promise<PositionCategoryResponseDto> {
    return this.writes.create(IntegrationEntity.PositionCategories, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a position category by external id (only the fields sent)' })
  @ApiOkResponse({ type: PositionCategoryResponseDto, description: 'The updated platform position category' })
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdatePositionCategoryBody,
    @Caller() caller: CallerContext,
  ): Promise<PositionCategoryResponseDto> {
    return this.writes.update(IntegrationEntity.PositionCategories, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a position category by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedPositionCategoryResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedPositionCategoryResponseDto> {
    return this.writes.remove(
      IntegrationEntity.PositionCategories,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }
}
