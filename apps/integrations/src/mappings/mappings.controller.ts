import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { type IntegrationEntity, type IntegrationSource } from '@platform/contracts';
import { ExternalMappingDto } from './dto/external-mapping.dto';
import { IntegrationsErrorBodyDto } from '../errors/integrations-error-body.dto';
import { MappingLookupParamsDto, MappingLookupQueryDto } from './dto/mapping-lookup.dto';
import type { ExternalMapping } from './external-mapping.entity';
import { MappingsService } from './mappings.service';

@ApiTags('mappings')
@RequirePermission(Permission.UseIntegrations)
@Controller()
export class MappingsController {
  constructor(private readonly mappings: MappingsService) {}

  @Get(':entity/:external_id')
  @ApiOperation({ summary: "Which platform entity an external id stands for (the caller's company only)" })
  @ApiOkResponse({ type: ExternalMappingDto })
  @ApiNotFoundResponse({ type: IntegrationsErrorBodyDto, description: 'ExternalIdNotFoundError (ZC001)' })
  async lookUp(
    @Param() params: MappingLookupParamsDto,
    @Query() query: MappingLookupQueryDto,
  ): Promise<ExternalMappingDto> {
    return toDto(await this.mappings.lookUp(query.source, params.entity, params.external_id));
  }
}

function toDto(mapping: ExternalMapping): ExternalMappingDto {
  return {
    source: mapping.source as IntegrationSource,
    entity: mapping.entity as IntegrationEntity,
    external_id: mapping.externalId,
    platform_id: mapping.platformId,
    state: mapping.state,
    created_at: mapping.createdAt.toISOString(),
  };
}
