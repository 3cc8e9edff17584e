import { Contract } from './contract.entity';
import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ContractsService } from './contracts.service';
import { UserIdsDto } from '../users/dto/user-ids.dto';
import { ContractDto, CreateContractDto, UpdateContractDto } from './dto/contract.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('contracts')
@Controller('contracts')
export class ContractsController {
  constructor(private readonly contracts: ContractsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a contract' })
  @ApiCreatedResponse({ type: ContractDto })
  async create(@Body() body: CreateContractDto): Promise<ContractDto> {
    return ContractDto.from(await this.contracts.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'List contracts; filters: name (contains), client_id, status (contains); sort: name',
  })
  @ApiFiltersExample({ client_id: [1, 2], status: 'active' })
  @ApiPaginatedResponse(ContractDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<ContractDto>> {
    return this.contracts.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One contract by id, with its user ids' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: ContractDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<ContractDto> {
    return ContractDto.from(await this.contracts.get(id));
  }

  @Put(':id')
  @ConditionalResource(Contract)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a contract (only the fields sent)' })
  @ApiOkResponse({ type: ContractDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateContractDto): Promise<ContractDto> {
    return ContractDto.from(await this.contracts.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Contract)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a contract (soft delete; answers the deleted contract)' })
  @ApiOkResponse({ type: ContractDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<ContractDto> {
    return ContractDto.from(await this.contracts.remove(id));
  }

  @Post(':id/users')
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Add users of your company to the contract (already members stay once)' })
  @ApiCreatedResponse({ type: ContractDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async addUsers(@Param('id', ParseIdPipe) id: number, @Body() body: UserIdsDto): Promise<ContractDto> {
    return ContractDto.from(await this.contracts.addUsers(id, body.user_ids));
  }

  @Delete(':id/users')
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Remove users from the contract' })
  @ApiOkResponse({ type: ContractDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async removeUsers(@Param('id', ParseIdPipe) id: number, @Body() body: UserIdsDto): Promise<ContractDto> {
    return ContractDto.from(await this.contracts.removeUsers(id, body.user_ids));
  }
}
