import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { RequestTenantScope, type FilterDefinitions, type TenantRepository } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Fee, FEE_STATUSES } from './fee.entity';

const FEE_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  status: { kind: 'enum', column: 'status', values: FEE_STATUSES },
};

/**
 * Fees of the request's company, always asked for through their client: a fee is addressed as
 * `clients/:client_id/fees/:id`, so its reads name both.
 */
@Injectable()
export class FeesRepository {
  private readonly fees: TenantRepository<Fee>;

  constructor(private readonly scope: RequestTenantScope) {
    this.fees = scope.repository(Fee);
  }

  /** Whether the client is one of the company's. */
  async hasClient(clientId: number): Promise<boolean> {
    return (await this.scope.repository(Client).findById(clientId)) !== null;
  }

  listOfClient<Dto>(
    clientId: number,
    list: ListQueryDto,
    toDto: (fee: Fee) => Dto,
  ): Promise<ListAnswer<Dto>> {
    return this.fees.paginate(
      this.fees.queryBuilder('fee').andWhere('fee.client_id = :clientId', { clientId }),
      'fee',
      list,
      FEE_FILTERS,
      toDto,
    );
  }

  /** The client's fee with this id, or a 404 naming both. */
  async getOfClient(clientId: number, id: number): Promise<Fee> {
    const [fee] = await this.fees.find({ where: { id, clientId }, take: 1 });
    if (!fee) {
      throw new ResourceNotFoundError(`Fee ${id} of client ${clientId}`);
    }
    return fee;
  }

  create(data: DeepPartial<Fee>): Promise<Fee> {
    return this.fees.create(data);
  }

  save(fee: Fee): Promise<Fee> {
    return this.fees.save(fee);
  }
}
