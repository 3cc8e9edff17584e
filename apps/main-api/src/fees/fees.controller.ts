import { Fee } from './fee.entity';
import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { CreateFeeDto, FeeDto, UpdateFeeDto } from './dto/fee.dto';
import { FeesService } from './fees.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('fees')
@Controller('clients/:client_id/fees')
export class FeesController {
  constructor(private readonly fees: FeesService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: "Create a client's fee (answered with status active)" })
  @ApiCreatedResponse({ type: FeeDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto, description: 'No such client in your company' })
  async create(
    @Param('client_id', ParseIdPipe) clientId: number,
    @Body() body: CreateFeeDto,
  ): Promise<FeeDto> {
    return FeeDto.from(await this.fees.create(clientId, body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "List a client's fees; filters: name (contains), status" })
  @ApiFiltersExample({ status: 'active' })
  @ApiPaginatedResponse(FeeDto)
  list(
    @Param('client_id', ParseIdPipe) clientId: number,
    @Query() query: ListQueryDto,
  ): Promise<ListAnswer<FeeDto>> {
    return this.fees.list(clientId, query);
  }

  @Get(':id')
  @ConditionalResource(Fee, {
    read: (fees: FeesController, params) => fees.get(Number(params.client_id), Number(params.id)),
  })
  @ApiOperation({ summary: 'One fee of a client by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: FeeDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(
    @Param('client_id', ParseIdPipe) clientId: number,
    @Param('id', ParseIdPipe) id: number,
  ): Promise<FeeDto> {
    return FeeDto.from(await this.fees.get(clientId, id));
  }

  @Put(':id')
  @ConditionalResource(Fee, {
    read: (fees: FeesController, params) => fees.get(Number(params.client_id), Number(params.id)),
  })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a fee (only the fields sent; status active or inactive)' })
  @ApiOkResponse({ type: FeeDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(
    @Param('client_id', ParseIdPipe) clientId: number,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateFeeDto,
  ): Promise<FeeDto> {
    return FeeDto.from(await this.fees.update(clientId, id, body));
  }
}
