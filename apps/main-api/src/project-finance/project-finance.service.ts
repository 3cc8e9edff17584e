import { Injectable } from '@nestjs/common';
import { isCalendarDate } from '@platform/contracts';
import { TenantRepositoryFactory } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { Fee } from '../fees/fee.entity';
import { Label } from '../labels/label.entity';
import { ProjectsService } from '../projects/projects.service';
import type { CreateProjectCostDto, CreateProjectEstimateDto } from './dto/project-finance.dto';
import { ProjectCost, ProjectEstimate } from './project-finance.entities';

/** Budget lines and costs of a project. */
@Injectable()
export class ProjectFinanceService {
  constructor(
    private readonly repositories: TenantRepositoryFactory,
    private readonly projects: ProjectsService,
  ) {}

  async addEstimate(projectId: number, body: CreateProjectEstimateDto): Promise<ProjectEstimate> {
    await this.projects.requireProject(projectId);
    assertDate(body.datetime);
    if (body.fee_id) {
      await this.repositories.for(Fee).requireReference(body.fee_id, 'fee_id');
    }
    return this.repositories.for(ProjectEstimate).create({
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
    return this.repositories.for(ProjectEstimate).find({ where: { projectId }, order: { id: 'ASC' } });
  }

  async addCost(projectId: number, body: CreateProjectCostDto): Promise<ProjectCost> {
    await this.projects.requireProject(projectId);
    assertDate(body.datetime);
    if (body.label_id) {
      await this.repositories.for(Label).requireReference(body.label_id, 'label_id');
    }
    if (body.project_estimate_id) {
      const estimate = await this.repositories
        .for(ProjectEstimate)
        .requireReference(body.project_estimate_id, 'project_estimate_id');
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
    return this.repositories.for(ProjectCost).create({
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
    return this.repositories.for(ProjectCost).find({ where: { projectId }, order: { id: 'ASC' } });
  }
}

function assertDate(value: string): void {
  if (!isCalendarDate(value)) {
    throw new RequestValidationError([
      { field: 'datetime', validation: 'isDate', message: 'datetime must be a real calendar date' },
    ]);
  }
}
