import { Label } from './label.entity';
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
import { LabelsService } from './labels.service';
import { CreateLabelDto, LabelDto, LabelsModelQueryDto, UpdateLabelDto } from './dto/label.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('labels')
@Controller('labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a label' })
  @ApiCreatedResponse({ type: LabelDto })
  async create(@Body() body: CreateLabelDto): Promise<LabelDto> {
    return LabelDto.from(await this.labels.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List labels; filters: name (contains), model; sort: name' })
  @ApiFiltersExample({ model: 'project' })
  @ApiPaginatedResponse(LabelDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<LabelDto>> {
    return this.labels.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One label by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: LabelDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<LabelDto> {
    return LabelDto.from(await this.labels.get(id));
  }

  @Put(':id')
  @ConditionalResource(Label)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a label (only the fields sent)' })
  @ApiOkResponse({ type: LabelDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateLabelDto): Promise<LabelDto> {
    return LabelDto.from(await this.labels.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Label)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a label (soft delete; answers the deleted label)' })
  @ApiOkResponse({ type: LabelDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<LabelDto> {
    return LabelDto.from(await this.labels.remove(id));
  }
}

@ApiTags('labels')
@Controller('categories')
export class LabelCategoriesController {
  constructor(private readonly labels: LabelsService) {}

  @Get('labels-model')
  // As GET /labels, whatever the model: role 6 may read its client's projects, but the company's
  // label vocabulary (user and task labels included) is company data it does not see.
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'The labels of one model (project, user, task): the objects whose ids those entities store',
    description: 'Roles 1-5, as GET /labels; role 6 (Client) gets 403 AC006 for every model.',
  })
  @ApiOkResponse({ type: [LabelDto] })
  ofModel(@Query() query: LabelsModelQueryDto): Promise<LabelDto[]> {
    return this.labels.ofModel(query.model);
  }
}
