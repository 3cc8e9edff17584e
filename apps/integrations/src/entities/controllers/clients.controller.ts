import { Body, Controller, Delete, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { ClientResponseDto, DeletedClientResponseDto } from '../dto/client.response.dto';
import { CreateClientBody, UpdateClientBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete } from './entity-routes';

const DELETED = 'The deleted platform client; only its id if main-api no longer had it';

/** `/v2/integrations/clients`: the operations interfaces.md lists for clients, by external id. */
@ApiTags('integrations: clients')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Clients)
export class ClientsController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a client' })
  @ApiCreatedResponse({ type: ClientResponseDto, description: 'The platform client, its platform id in id' })
  @DuplicateExternalId()
  create(@Body() body: CreateClientBody, @Caller() caller: CallerContext): Promise<ClientResponseDto> {
    return this.writes.create(IntegrationEntity.Clients, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a client by external id (only the fields sent)' })
  @ApiOkResponse({ type: ClientResponseDto, description: 'The updated platform client' })
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateClientBody,
    @Caller() caller: CallerContext,
  ): Promise<ClientResponseDto> {
    return this.writes.update(IntegrationEntity.Clients, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a client by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedClientResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedClientResponseDto> {
    return this.writes.remove(
      IntegrationEntity.Clients,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }
}
