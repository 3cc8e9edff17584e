import { Brand } from './brand.entity';
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
import { BrandsService } from './brands.service';
import { BrandDto, CreateBrandDto, UpdateBrandDto } from './dto/brand.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('brands')
@Controller('brands')
export class BrandsController {
  constructor(private readonly brands: BrandsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a brand' })
  @ApiCreatedResponse({ type: BrandDto })
  async create(@Body() body: CreateBrandDto): Promise<BrandDto> {
    return BrandDto.from(await this.brands.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List brands; filters: name (contains), client_id; sort: name' })
  @ApiFiltersExample({ client_id: [1, 2], name: 'organic' })
  @ApiPaginatedResponse(BrandDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<BrandDto>> {
    return this.brands.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One brand by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: BrandDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<BrandDto> {
    return BrandDto.from(await this.brands.get(id));
  }

  @Put(':id')
  @ConditionalResource(Brand)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a brand (only the fields sent)' })
  @ApiOkResponse({ type: BrandDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateBrandDto): Promise<BrandDto> {
    return BrandDto.from(await this.brands.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Brand)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a brand (soft delete; answers the deleted brand)' })
  @ApiOkResponse({ type: BrandDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<BrandDto> {
    return BrandDto.from(await this.brands.remove(id));
  }
}
