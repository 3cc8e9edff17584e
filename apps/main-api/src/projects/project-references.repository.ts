import { Injectable } from '@nestjs/common';
import { RequestTenantScope } from '@platform/database';
import { In } from 'typeorm';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { Contract } from '../contracts/contract.entity';
import { Fee } from '../fees/fee.entity';
import { LabelReferences } from '../labels/label-references.repository';
import { PositionCategory } from '../positions/position-category.entity';
import { Position } from '../positions/position.entity';
import { Product } from '../products/product.entity';
import { Ratecard } from '../ratecards/ratecard.entity';
import { User } from '../users/user.entity';

/** What a project may name that belongs to one client, by the field naming it. */
const OF_CLIENT = { brand_id: Brand, product_id: Product, fee_id: Fee, contract_id: Contract } as const;
export type ClientOwnedField = keyof typeof OF_CLIENT;

/**
 * The rows a project body refers to, in the request's company. Each `require` answers 400 naming the
 * body's field when the company has no such row (another company's id is as unknown as a missing one).
 */
@Injectable()
export class ProjectReferencesRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    private readonly labels: LabelReferences,
  ) {}

  async requireClient(id: number): Promise<void> {
    await this.scope.repository(Client).requireReference(id, 'client_id');
  }

  /** The project manager (`pm_id`). */
  async requireManager(id: number): Promise<void> {
    await this.scope.repository(User).requireReference(id, 'pm_id');
  }

  /** The ratecard, under the field the body named it by (`ratecard_id` or `user_positions_header_id`). */
  async requireRatecard(id: number, field: string): Promise<void> {
    await this.scope.repository(Ratecard).requireReference(id, field);
  }

  /** The project's labels (`labels`); those it had (`kept`) may have been deleted since. */
  requireLabels(ids: number[], kept: readonly number[]): Promise<void> {
    return this.labels.require(ids, kept);
  }

  /** The client of the brand, product, fee or contract the body names by `field`. */
  async clientOf(field: ClientOwnedField, id: number): Promise<number> {
    const row = await this.scope
      .repository<Brand | Product | Fee | Contract>(OF_CLIENT[field])
      .requireReference(id, field);
    return row.clientId;
  }

  /** Those of the position ids the company has none of. */
  missingPositions(ids: number[]): Promise<number[]> {
    return this.missing(Position, ids);
  }

  /** Those of the position category ids the company has none of. */
  missingCategories(ids: number[]): Promise<number[]> {
    return this.missing(PositionCategory, ids);
  }

  private async missing(entity: typeof Position | typeof PositionCategory, ids: number[]): Promise<number[]> {
    const found = new Set(
      (
        await this.scope
          .repository<Position | PositionCategory>(entity)
          .find({ where: { id: In(ids) }, select: { id: true } })
      ).map((row) => row.id),
    );
    return ids.filter((id) => !found.has(id));
  }
}
