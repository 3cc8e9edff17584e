import { Injectable } from '@nestjs/common';
import { RequestValidationError } from '@platform/runtime';
import type { EstimateItemDto, UpdateProjectDto } from './dto/project-write.dto';
import type { Project } from './project.entity';
import { ProjectReferencesRepository, type ClientOwnedField } from './project-references.repository';

/**
 * 400 naming the field for every id a project refers to that the caller's company does not have,
 * or that belongs to another client than the project's.
 */
@Injectable()
export class ProjectReferences {
  constructor(private readonly references: ProjectReferencesRepository) {}

  /** The labels sent, when sent; `stored` are those the project had before (none for a new one). */
  async requireLabels(body: UpdateProjectDto, stored: readonly number[]): Promise<void> {
    if (body.labels !== undefined) {
      await this.references.requireLabels(body.labels, stored);
    }
  }

  async requireOfProject(project: Project, ratecardField: string): Promise<void> {
    await this.references.requireClient(project.clientId);
    if (project.pmId) {
      await this.references.requireManager(project.pmId);
    }
    await this.requireOfClient('brand_id', project.brandId, project.clientId);
    await this.requireOfClient('product_id', project.productId, project.clientId);
    await this.requireOfClient('fee_id', project.feeId, project.clientId);
    await this.requireOfClient('contract_id', project.contractId, project.clientId);
    if (project.userPositionsHeaderId) {
      await this.references.requireRatecard(project.userPositionsHeaderId, ratecardField);
    }
  }

  async requireOfEstimateLines(body: UpdateProjectDto): Promise<void> {
    await this.requireAll(body.users_positions, 'users_positions', (ids) =>
      this.references.missingPositions(ids),
    );
    await this.requireAll(body.categories, 'categories', (ids) => this.references.missingCategories(ids));
  }

  private async requireOfClient(field: ClientOwnedField, id: number | null, clientId: number): Promise<void> {
    if (!id) {
      return;
    }
    if ((await this.references.clientOf(field, id)) !== clientId) {
      throw new RequestValidationError([
        {
          field,
          validation: 'belongsToClient',
          message: `${field} ${id} does not belong to client ${clientId}`,
        },
      ]);
    }
  }

  private async requireAll(
    items: EstimateItemDto[] | undefined,
    field: string,
    missingOf: (ids: number[]) => Promise<number[]>,
  ): Promise<void> {
    const ids = (items ?? []).map((item) => item.id);
    if (ids.length === 0) {
      return;
    }
    const missing = await missingOf(ids);
    if (missing.length > 0) {
      throw new RequestValidationError([
        { field, validation: 'exists', message: `${field}: ${missing.join(', ')} do not exist` },
      ]);
    }
  }
}
