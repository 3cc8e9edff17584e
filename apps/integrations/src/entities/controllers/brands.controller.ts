import { Body, Controller, Delete, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { BrandResponseDto, DeletedBrandResponseDto } from '../dto/brand.response.dto';
import { CreateBrandBody, UpdateBrandBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete, UnknownReference } from './entity-routes';

const DELETED = 'The deleted platform brand; only its id if main-api no longer had it';

/** `/v2/integrations/brands`: the operations interfaces.md lists for brands, by external id. */
@ApiTags('integrations: brands')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Brands)
export class BrandsController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a brand of a client (client_id: external id)' })
  @ApiCreatedResponse({ type: BrandResponseDto, description: 'The platform brand, its platform id in id' })
  @UnknownReference('client_id')
  @DuplicateExternalId()
  create(@Body() body: CreateBrandBody, @Caller() caller: CallerContext): Promise<BrandResponseDto> {
    return this.writes.create(IntegrationEntity.Brands, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a brand by external id (only the fields sent)' })
  @ApiOkResponse({ type: BrandResponseDto, description: 'The updated platform brand' })
  @UnknownReference('client_id')
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateBrandBody,
    @Caller() caller: CallerContext,
  ): Promise<BrandResponseDto> {
    return this.writes.update(IntegrationEntity.Brands, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a brand by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedBrandResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedBrandResponseDto> {
    return this.writes.remove(
      IntegrationEntity.Brands,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }
}
