import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import {
  CreateProjectCostDto,
  CreateProjectEstimateDto,
  ProjectCostDto,
  ProjectEstimateDto,
} from './dto/project-finance.dto';
import { ProjectFinanceService } from './project-finance.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('projects')
@Controller('projects/:project_id')
export class ProjectFinanceController {
  constructor(private readonly finance: ProjectFinanceService) {}

  @Post('project_estimate')
  @Idempotent()
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({ summary: 'Add a budget line to a project' })
  @ApiCreatedResponse({ type: ProjectEstimateDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async addEstimate(
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: CreateProjectEstimateDto,
  ): Promise<ProjectEstimateDto> {
    return ProjectEstimateDto.from(await this.finance.addEstimate(projectId, body));
  }

  @Get('project_estimate')
  @ApiOperation({ summary: "The project's budget lines (estimates)" })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: [ProjectEstimateDto] })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async estimates(@Param('project_id', ParseIdPipe) projectId: number): Promise<ProjectEstimateDto[]> {
    return (await this.finance.estimates(projectId)).map((estimate) => ProjectEstimateDto.from(estimate));
  }

  @Post('project_cost')
  @Idempotent()
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({ summary: 'Record a cost of a project' })
  @ApiCreatedResponse({ type: ProjectCostDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async addCost(
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: CreateProjectCostDto,
  ): Promise<ProjectCostDto> {
    return ProjectCostDto.from(await this.finance.addCost(projectId, body));
  }

  @Get('project_cost')
  @ApiOperation({ summary: "The project's costs" })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: [ProjectCostDto] })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async costs(@Param('project_id', ParseIdPipe) projectId: number): Promise<ProjectCostDto[]> {
    return (await this.finance.costs(projectId)).map((cost) => ProjectCostDto.from(cost));
  }
}
