import { Project } from './project.entity';
import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ProjectDetailDto, ProjectDto } from './dto/project.dto';
import { CreateProjectDto, SearchByNameParamsDto, UpdateProjectDto } from './dto/project-write.dto';
import { ProjectReads } from './project-reads';
import { ProjectWrites } from './project-writes';
import { Idempotent } from '../idempotency/idempotent.decorator';

const BUSINESS_RULES =
  '422 AC004: two estimation modes at once; income_type fee without fee_id, contract without contract_id, one_time without estimated, hourly_rate without a ratecard';

@ApiTags('projects')
@Controller('projects')
export class ProjectsController {
  constructor(
    private readonly reads: ProjectReads,
    private readonly writes: ProjectWrites,
  ) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({
    summary: 'Create a project with its estimation and income model',
    description: BUSINESS_RULES,
  })
  @ApiCreatedResponse({ type: ProjectDetailDto })
  @ApiUnprocessableEntityResponse({ type: MainApiErrorBodyDto })
  async create(@Body() body: CreateProjectDto): Promise<ProjectDetailDto> {
    return this.reads.detail(await this.writes.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadProjects)
  @ApiOperation({
    summary:
      'List projects; filters: id, client_id, status (in_process = active), archived, billable, brand_id, product_id, pm_id, income_type, health, name (contains)',
  })
  @ApiFiltersExample({ status: 'in_process', archived: false })
  @ApiPaginatedResponse(ProjectDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<ProjectDto>> {
    return this.reads.list(query);
  }

  @Get('search-by-name/:project_name')
  @RequirePermission(Permission.ReadProjects)
  @ApiOperation({ summary: 'Projects whose name contains the text (case-insensitive), at most 50' })
  @ApiOkResponse({ type: [ProjectDto] })
  searchByName(@Param() params: SearchByNameParamsDto): Promise<ProjectDto[]> {
    return this.reads.searchByName(params.project_name);
  }

  @Get(':project_id')
  @ConditionalRead()
  @RequirePermission(Permission.ReadProjects)
  @ApiOperation({
    summary:
      'A project with its client, pm, estimate lines (usersPositionsProject, categoriesProject) and ratecard',
  })
  @ApiOkResponse({ type: ProjectDetailDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  detail(@Param('project_id', ParseIdPipe) id: number): Promise<ProjectDetailDto> {
    return this.reads.detail(id);
  }

  @Put(':project_id')
  @ConditionalResource(Project, { param: 'project_id', read: 'detail' })
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({
    summary: 'Update a project (only the fields sent)',
    description: `${BUSINESS_RULES}. A position on the project absent from users_positions gets 0 estimated hours and is removed when no hours were logged against it.`,
  })
  @ApiOkResponse({ type: ProjectDetailDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiUnprocessableEntityResponse({ type: MainApiErrorBodyDto })
  async update(
    @Param('project_id', ParseIdPipe) id: number,
    @Body() body: UpdateProjectDto,
  ): Promise<ProjectDetailDto> {
    return this.reads.detail(await this.writes.update(id, body));
  }
}
