import { Workspace } from './workspace.entity';
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
import { WorkspacesService } from './workspaces.service';
import { CreateWorkspaceDto, UpdateWorkspaceDto, WorkspaceDto } from './dto/workspace.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('workspaces')
@Controller('workspaces')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a workspace' })
  @ApiCreatedResponse({ type: WorkspaceDto })
  async create(@Body() body: CreateWorkspaceDto): Promise<WorkspaceDto> {
    return WorkspaceDto.from(await this.workspaces.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List workspaces; filters: name (contains), active; sort: name' })
  @ApiFiltersExample({ active: true })
  @ApiPaginatedResponse(WorkspaceDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<WorkspaceDto>> {
    return this.workspaces.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One workspace by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: WorkspaceDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<WorkspaceDto> {
    return WorkspaceDto.from(await this.workspaces.get(id));
  }

  @Put(':id')
  @ConditionalResource(Workspace)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a workspace (only the fields sent)' })
  @ApiOkResponse({ type: WorkspaceDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateWorkspaceDto,
  ): Promise<WorkspaceDto> {
    return WorkspaceDto.from(await this.workspaces.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Workspace)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a workspace (soft delete; answers the deleted workspace)' })
  @ApiOkResponse({ type: WorkspaceDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<WorkspaceDto> {
    return WorkspaceDto.from(await this.workspaces.remove(id));
  }
}
