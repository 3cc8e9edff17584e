import { Injectable } from '@nestjs/common';
import { TenantRepositoryFactory } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { In } from 'typeorm';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { Contract } from '../contracts/contract.entity';
import { Fee } from '../fees/fee.entity';
import { PositionCategory } from '../positions/position-category.entity';
import { Position } from '../positions/position.entity';
import { Product } from '../products/product.entity';
import { Ratecard } from '../ratecards/ratecard.entity';
import { User } from '../users/user.entity';
import type { EstimateItemDto, UpdateProjectDto } from './dto/project-write.dto';
import type { Project } from './project.entity';

/**
 * 400 naming the field for every id a project refers to that the caller's company does not have,
 * or that belongs to another client than the project's.
 */
@Injectable()
export class ProjectReferences {
  constructor(private readonly repositories: TenantRepositoryFactory) {}

  async requireOfProject(project: Project, ratecardField: string): Promise<void> {
    await this.repositories.for(Client).requireReference(project.clientId, 'client_id');
    await this.requireOptional(User, project.pmId, 'pm_id');
    await this.requireOfClient(Brand, project.brandId, 'brand_id', project.clientId);
    await this.requireOfClient(Product, project.productId, 'product_id', project.clientId);
    await this.requireOfClient(Fee, project.feeId, 'fee_id', project.clientId);
    await this.requireOfClient(Contract, project.contractId, 'contract_id', project.clientId);
    await this.requireOptional(Ratecard, project.userPositionsHeaderId, ratecardField);
  }

  async requireOfEstimateLines(body: UpdateProjectDto): Promise<void> {
    await this.requireAll(Position, body.users_positions, 'users_positions');
    await this.requireAll(PositionCategory, body.categories, 'categories');
  }

  private async requireOptional(
    entity: typeof User | typeof Ratecard,
    id: number | null,
    field: string,
  ): Promise<void> {
    if (id) {
      await this.repositories.for<User | Ratecard>(entity).requireReference(id, field);
    }
  }

  private async requireOfClient(
    entity: typeof Brand | typeof Product | typeof Fee | typeof Contract,
    id: number | null,
    field: string,
    clientId: number,
  ): Promise<void> {
    if (!id) {
      return;
    }
    const row = await this.repositories
      .for<Brand | Product | Fee | Contract>(entity)
      .requireReference(id, field);
    if (row.clientId !== clientId) {
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
    entity: typeof Position | typeof PositionCategory,
    items: EstimateItemDto[] | undefined,
    field: string,
  ): Promise<void> {
    const ids = (items ?? []).map((item) => item.id);
    if (ids.length === 0) {
      return;
    }
    const found = new Set(
      (
        await this.repositories
          .for<Position | PositionCategory>(entity)
          .find({ where: { id: In(ids) }, select: { id: true } })
      ).map((row) => row.id),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new RequestValidationError([
        { field, validation: 'exists', message: `${field}: ${missing.join(', ')} do not exist` },
      ]);
    }
  }
}
