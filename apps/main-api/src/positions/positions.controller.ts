import { ConditionalRead, ConditionalResource } from '@platform/runtime';
import { Position } from './position.entity';
import { PositionCategory } from './position-category.entity';
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
import { ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import {
  CreatePositionCategoryDto,
  CreatePositionDto,
  PositionCategoryDto,
  PositionDto,
  UpdatePositionCategoryDto,
  UpdatePositionDto,
} from './dto/position.dto';
import { PositionsService } from './positions.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('positions')
@Controller('positions')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a position (optionally in a category)' })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiCreatedResponse({ type: PositionDto })
  async create(@Body() body: CreatePositionDto): Promise<PositionDto> {
    return PositionDto.from(await this.positions.createPosition(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List positions; filters: name (contains), category_id; sort: name' })
  @ApiFiltersExample({ name: 'design' })
  @ApiPaginatedResponse(PositionDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<PositionDto>> {
    return this.positions.listPositions(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One position by id, with its category' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: PositionDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<PositionDto> {
    return PositionDto.from(await this.positions.getPosition(id));
  }

  @Put(':id')
  @ConditionalResource(Position)
  @ApiOperation({ summary: 'Update a position (only the fields sent)' })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOkResponse({ type: PositionDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdatePositionDto): Promise<PositionDto> {
    return PositionDto.from(await this.positions.updatePosition(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Position)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a position (soft delete; answers the deleted position)' })
  @ApiOkResponse({ type: PositionDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<PositionDto> {
    return PositionDto.from(await this.positions.removePosition(id));
  }
}

@ApiTags('positions')
@Controller('position-categories')
export class PositionCategoriesController {
  constructor(private readonly positions: PositionsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a position category' })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiCreatedResponse({ type: PositionCategoryDto })
  async create(@Body() body: CreatePositionCategoryDto): Promise<PositionCategoryDto> {
    return PositionCategoryDto.from(await this.positions.createCategory(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List position categories; filters: name (contains); sort: name' })
  @ApiFiltersExample({ name: 'creative' })
  @ApiPaginatedResponse(PositionCategoryDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<PositionCategoryDto>> {
    return this.positions.listCategories(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One position category by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: PositionCategoryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<PositionCategoryDto> {
    return PositionCategoryDto.from(await this.positions.getCategory(id));
  }

  @Put(':id')
  @ConditionalResource(PositionCategory)
  @ApiOperation({ summary: 'Rename a position category' })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOkResponse({ type: PositionCategoryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdatePositionCategoryDto,
  ): Promise<PositionCategoryDto> {
    return PositionCategoryDto.from(await this.positions.updateCategory(id, body));
  }

  @Delete(':id')
  @ConditionalResource(PositionCategory)
  @ApiOperation({ summary: 'Delete a position category (soft delete; answers the deleted category)' })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOkResponse({ type: PositionCategoryDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<PositionCategoryDto> {
    return PositionCategoryDto.from(await this.positions.removeCategory(id));
  }
}
