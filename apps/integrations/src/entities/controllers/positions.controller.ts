import { Body, Controller, Delete, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { PositionResponseDto, DeletedPositionResponseDto } from '../dto/position.response.dto';
import { CreatePositionBody, UpdatePositionBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete, UnknownReference } from './entity-routes';

const DELETED = 'The deleted platform position; only its id if main-api no longer had it';

/** `/v2/integrations/positions`: the operations interfaces.md lists for positions, by external id. */
@ApiTags('integrations: positions')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Positions)
export class PositionsController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a position (category_id: external id)' })
  @ApiCreatedResponse({
    type: PositionResponseDto,
    description: 'The platform position, its platform id in id',
  })
  @UnknownReference('category_id')
  @DuplicateExternalId()
  create(@Body() body: CreatePositionBody, @Caller() caller: CallerContext): Promise<PositionResponseDto> {
    return this.writes.create(IntegrationEntity.Positions, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a position by external id (only the fields sent)' })
  @ApiOkResponse({ type: PositionResponseDto, description: 'The updated platform position' })
  @UnknownReference('category_id')
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdatePositionBody,
    @Caller() caller: CallerContext,
  ): Promise<PositionResponseDto> {
    return this.writes.update(IntegrationEntity.Positions, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a position by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedPositionResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedPositionResponseDto> {
    return this.writes.remove(
      IntegrationEntity.Positions,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }
}
