import { Product } from './product.entity';
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
import { ProductsService } from './products.service';
import { ProductDto, CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('products')
@Controller('products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a product' })
  @ApiCreatedResponse({ type: ProductDto })
  async create(@Body() body: CreateProductDto): Promise<ProductDto> {
    return ProductDto.from(await this.products.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List products; filters: name (contains), client_id, brand_id; sort: name' })
  @ApiFiltersExample({ brand_id: [1, 2], name: 'oats' })
  @ApiPaginatedResponse(ProductDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<ProductDto>> {
    return this.products.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One product by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<ProductDto> {
    return ProductDto.from(await this.products.get(id));
  }

  @Put(':id')
  @ConditionalResource(Product)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a product (only the fields sent)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateProductDto): Promise<ProductDto> {
    return ProductDto.from(await this.products.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Product)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a product (soft delete; answers the deleted product)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<ProductDto> {
    return ProductDto.from(await this.products.remove(id));
  }
}
