import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type TenantRepository } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { Fee } from '../fees/fee.entity';
import { Label } from '../labels/label.entity';
import { ProjectCost, ProjectEstimate } from './project-finance.entities';

/** Budget lines and costs of projects in the request's company, and the rows they refer to. */
@Injectable()
export class ProjectFinanceRepository {
  private readonly estimates: TenantRepository<ProjectEstimate>;
  private readonly costs: TenantRepository<ProjectCost>;

  constructor(private readonly scope: RequestTenantScope) {
    this.estimates = scope.repository(ProjectEstimate);
    this.costs = scope.repository(ProjectCost);
  }

  addEstimate(columns: DeepPartial<ProjectEstimate>): Promise<ProjectEstimate> {
    return this.estimates.create(columns);
  }

  /** The project's budget lines, oldest first. */
  estimatesOf(projectId: number): Promise<ProjectEstimate[]> {
    return this.estimates.find({ where: { projectId }, order: { id: 'ASC' } });
  }

  addCost(columns: DeepPartial<ProjectCost>): Promise<ProjectCost> {
    return this.costs.create(columns);
  }

  /** The project's costs, oldest first. */
  costsOf(projectId: number): Promise<ProjectCost[]> {
    return this.costs.find({ where: { projectId }, order: { id: 'ASC' } });
  }

  /** The budget line a cost spends, by the body's `project_estimate_id` (400 naming it when unknown). */
  requireEstimate(id: number): Promise<ProjectEstimate> {
    return this.estimates.requireReference(id, 'project_estimate_id');
  }

  /** The fee a budget line belongs to, by the body's `fee_id` (400 naming it when unknown). */
  async requireFee(id: number): Promise<void> {
    await this.scope.repository(Fee).requireReference(id, 'fee_id');
  }

  /** The cost's label, by the body's `label_id` (400 naming it when unknown). */
  async requireLabel(id: number): Promise<void> {
    await this.scope.repository(Label).requireReference(id, 'label_id');
  }
}
