import { Client } from './client.entity';
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
import { ClientsService } from './clients.service';
import { ClientDto } from './dto/client.dto';
import { CreateClientDto, UpdateClientDto } from './dto/create-client.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('clients')
@Controller('clients')
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a client' })
  @ApiCreatedResponse({ type: ClientDto })
  async create(@Body() body: CreateClientDto): Promise<ClientDto> {
    return ClientDto.from(await this.clients.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List clients; filters: name (contains), archived, currency_id; sort: name' })
  @ApiFiltersExample({ name: 'north', archived: false })
  @ApiPaginatedResponse(ClientDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<ClientDto>> {
    return this.clients.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One client by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: ClientDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<ClientDto> {
    return ClientDto.from(await this.clients.get(id));
  }

  @Put(':id')
  @ConditionalResource(Client)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a client (only the fields sent)' })
  @ApiOkResponse({ type: ClientDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateClientDto): Promise<ClientDto> {
    return ClientDto.from(await this.clients.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Client)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a client (soft delete; answers the deleted client)' })
  @ApiOkResponse({ type: ClientDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<ClientDto> {
    return ClientDto.from(await this.clients.remove(id));
  }
}
