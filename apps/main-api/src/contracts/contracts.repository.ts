import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Ratecard } from '../ratecards/ratecard.entity';
import { UserMemberships } from '../users/user-memberships.repository';
import { ContractMember } from './contract-member.entity';
import { Contract } from './contract.entity';

/** Contracts of the request's company, each read with its currency and users. */
@Injectable()
export class ContractsRepository extends FeatureRepository<Contract> {
  constructor(
    scope: RequestTenantScope,
    private readonly memberships: UserMemberships,
  ) {
    super(scope, {
      entity: Contract,
      alias: 'contract',
      filters: {
        name: { kind: 'text', column: 'name' },
        client_id: { kind: 'integer', column: 'client_id' },
        status: { kind: 'text', column: 'status' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Contract ${id}`),
      relations: { currency: 'currency', members: 'member' },
    });
  }

  /** A contract soft-deleted or not, as `get` reads it, `deleted_at` included. */
  async getWithDeleted(id: number): Promise<Contract> {
    return this.found(id, await this.rows.run(() => this.withId(id).withDeleted().getOne()));
  }

  /** The client a body names (`client_id`), or a 400 naming that field. */
  requireClient(id: number): Promise<Client> {
    return this.scope.repository(Client).requireReference(id, 'client_id');
  }

  /** The ratecard a body names (`user_positions_header_id`), or a 400 naming that field. */
  async requireRatecard(id: number): Promise<void> {
    await this.scope.repository(Ratecard).requireReference(id, 'user_positions_header_id');
  }

  /** Assigns users of the company to the contract; a user already on it stays once. */
  addMembers(contractId: number, userIds: number[]): Promise<void> {
    return this.memberships.add(ContractMember, 'contractId', contractId, userIds);
  }

  removeMembers(contractId: number, userIds: number[]): Promise<void> {
    return this.memberships.remove(ContractMember, 'contractId', contractId, userIds);
  }
}
