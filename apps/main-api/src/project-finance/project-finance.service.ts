import { Injectable } from '@nestjs/common';
import { isCalendarDate } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { ProjectsService } from '../projects/projects.service';
import type { CreateProjectCostDto, CreateProjectEstimateDto } from './dto/project-finance.dto';
import type { ProjectCost, ProjectEstimate } from './project-finance.entities';
import { ProjectFinanceRepository } from './project-finance.repository';

/** Budget lines and costs of a project. */
@Injectable()
export class ProjectFinanceService {
  constructor(
    private readonly finance: ProjectFinanceRepository,
    private readonly projects: ProjectsService,
  ) {}

  async addEstimate(projectId: number, body: CreateProjectEstimateDto): Promise<ProjectEstimate> {
    await this.projects.requireProject(projectId);
    assertDate(body.datetime);
    if (body.fee_id) {
      await this.finance.requireFee(body.fee_id);
    }
    return this.finance.addEstimate({
      projectId,
      title: body.title,
      cost: body.cost,
      datetime: body.datetime,
      currencyId: body.currency_id ?? 1,
      feeId: body.fee_id ?? null,
    });
  }

  async estimates(projectId: number): Promise<ProjectEstimate[]> {
    await this.projects.requireProject(projectId);
    return this.finance.estimatesOf(projectId);
  }

  async addCost(projectId: number, body: CreateProjectCostDto): Promise<ProjectCost> {
    await this.projects.requireProject(projectId);
    assertDate(body.datetime);
    if (body.label_id) {
      await this.finance.requireLabel(body.label_id);
    }
    if (body.project_estimate_id) {
      const estimate = await this.finance.requireEstimate(body.project_estimate_id);
      if (estimate.projectId !== projectId) {
        throw new RequestValidationError([
          {
            field: 'project_estimate_id',
            validation: 'ofProject',
            message: `project_estimate_id ${estimate.id} is not a budget line of project ${projectId}`,
          },
        ]);
      }
    }
    return this.finance.addCost({
      projectId,
      title: body.title,
      cost: String(body.cost),
      datetime: body.datetime,
      labelId: body.label_id ?? null,
      projectEstimateId: body.project_estimate_id ?? null,
      idProjectHistory: body.id_project_history ?? null,
    });
  }

  async costs(projectId: number): Promise<ProjectCost[]> {
    await this.projects.requireProject(projectId);
    return this.finance.costsOf(projectId);
  }
}

function assertDate(value: string): void {
  if (!isCalendarDate(value)) {
    throw new RequestValidationError([
      { field: 'datetime', validation: 'isDate', message: 'datetime must be a real calendar date' },
    ]);
  }
}
