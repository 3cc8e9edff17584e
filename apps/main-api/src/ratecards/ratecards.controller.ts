import { Ratecard } from './ratecard.entity';
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
import { RatecardsService } from './ratecards.service';
import { CreateRatecardDto, RatecardDto, UpdateRatecardDto } from './dto/ratecard.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('ratecards')
@Controller('ratecards')
export class RatecardsController {
  constructor(private readonly ratecards: RatecardsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a ratecard' })
  @ApiCreatedResponse({ type: RatecardDto })
  async create(@Body() body: CreateRatecardDto): Promise<RatecardDto> {
    return RatecardDto.from(await this.ratecards.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "The company's ratecards; filters: name (contains), currency_id; sort: name" })
  @ApiFiltersExample({ currency_id: 1 })
  @ApiPaginatedResponse(RatecardDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<RatecardDto>> {
    return this.ratecards.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One ratecard by id, with its prices' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: RatecardDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<RatecardDto> {
    return RatecardDto.from(await this.ratecards.get(id));
  }

  @Put(':id')
  @ConditionalResource(Ratecard)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a ratecard (only the fields sent)' })
  @ApiOkResponse({ type: RatecardDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateRatecardDto): Promise<RatecardDto> {
    return RatecardDto.from(await this.ratecards.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Ratecard)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a ratecard (soft delete; answers the deleted ratecard)' })
  @ApiOkResponse({ type: RatecardDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<RatecardDto> {
    return RatecardDto.from(await this.ratecards.remove(id));
  }
}
