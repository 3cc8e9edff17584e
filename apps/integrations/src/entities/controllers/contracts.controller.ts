import { Body, Controller, Delete, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { ContractResponseDto, DeletedContractResponseDto } from '../dto/contract.response.dto';
import { CreateContractBody, UpdateContractBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, ExternalUsersDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete, UnknownReference } from './entity-routes';

const DELETED = 'The deleted platform contract; only its id if main-api no longer had it';

/** `/v2/integrations/contracts`: the operations interfaces.md lists for contracts, by external id. */
@ApiTags('integrations: contracts')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.Contracts)
export class ContractsController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a contract of a client (client_id: external id)' })
  @ApiCreatedResponse({
    type: ContractResponseDto,
    description: 'The platform contract, its platform id in id',
  })
  @UnknownReference('client_id')
  @DuplicateExternalId()
  create(@Body() body: CreateContractBody, @Caller() caller: CallerContext): Promise<ContractResponseDto> {
    return this.writes.create(IntegrationEntity.Contracts, body, caller);
  }

  @Put(':external_id')
  @ApiOperation({ summary: 'Update a contract by external id (only the fields sent)' })
  @ApiOkResponse({ type: ContractResponseDto, description: 'The updated platform contract' })
  @UnknownReference('client_id')
  @ExternalIdNotFound()
  update(
    @Param() params: ExternalIdParamsDto,
    @Body() body: UpdateContractBody,
    @Caller() caller: CallerContext,
  ): Promise<ContractResponseDto> {
    return this.writes.update(IntegrationEntity.Contracts, params.external_id, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a contract by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: DeletedContractResponseDto, description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<DeletedContractResponseDto> {
    return this.writes.remove(
      IntegrationEntity.Contracts,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }

  @Post(':external_id/users')
  @HttpCode(200)
  @ApiOperation({ summary: 'Attach users to a contract (external user ids)' })
  @ApiOkResponse({ type: ContractResponseDto, description: 'The platform contract with its users' })
  @UnknownReference('users')
  @ExternalIdNotFound()
  attachUsers(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalUsersDto,
    @Caller() caller: CallerContext,
  ): Promise<ContractResponseDto> {
    return this.writes.changeUsers(IntegrationEntity.Contracts, params.external_id, body, 'POST', caller);
  }

  @Delete(':external_id/users')
  @HttpCode(200)
  @ApiOperation({ summary: 'Detach users from a contract (external user ids)' })
  @ApiOkResponse({ type: ContractResponseDto, description: 'The platform contract with its users' })
  @UnknownReference('users')
  @ExternalIdNotFound()
  detachUsers(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalUsersDto,
    @Caller() caller: CallerContext,
  ): Promise<ContractResponseDto> {
    return this.writes.changeUsers(IntegrationEntity.Contracts, params.external_id, body, 'DELETE', caller);
  }
}
