import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { Client } from '../clients/client.entity';
import { UserMemberships } from '../users/user-memberships';
import { ContractMember } from './contract-member.entity';
import { Contract } from './contract.entity';
import { ContractDto, type CreateContractDto, type UpdateContractDto } from './dto/contract.dto';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const CONTRACT_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  client_id: { kind: 'integer', column: 'client_id' },
  status: { kind: 'text', column: 'status' },
};

@Injectable()
export class ContractsService {
  private readonly contracts: TenantRepository<Contract>;
  private readonly clients: TenantRepository<Client>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly memberships: UserMemberships,
  ) {
    this.contracts = repositories.for(Contract);
    this.clients = repositories.for(Client);
  }

  async create(body: CreateContractDto): Promise<Contract> {
    await this.clients.requireReference(body.client_id, 'client_id');
    const { start, end } = period(body.start, body.end);
    const { id } = await this.contracts.create({
      clientId: body.client_id,
      name: body.name,
      currencyId: body.currency_id ?? 1,
      userPositionsHeaderId: body.user_positions_header_id ?? null,
      jsonIntegrations: body.json_integrations ?? {},
      type: body.type ?? '',
      source: body.source ?? '',
      status: body.status ?? 'active',
      frequency: body.frequency ?? '',
      url: body.url ?? '',
      urlName: body.url_name ?? '',
      start: start ?? null,
      end: end ?? null,
    });
    return this.get(id);
  }

  list(query: ListQueryDto): Promise<Paginated<ContractDto> | ContractDto[]> {
    return this.contracts.paginate(this.withDetails(), 'contract', query, CONTRACT_FILTERS, (contract) =>
      ContractDto.from(contract),
    );
  }

  async get(id: number, options: { withDeleted?: boolean } = {}): Promise<Contract> {
    const query = this.withDetails().andWhere('contract.id = :id', { id });
    const contract = await this.contracts.run(() =>
      (options.withDeleted ? query.withDeleted() : query).getOne(),
    );
    if (!contract) {
      throw new ResourceNotFoundError(`Contract ${id}`);
    }
    return contract;
  }

  async update(id: number, body: UpdateContractDto): Promise<Contract> {
    const contract = await this.get(id);
    if (body.client_id !== undefined) {
      await this.clients.requireReference(body.client_id, 'client_id');
    }
    const { start, end } = period(
      body.start ?? contract.start?.toISOString(),
      body.end ?? contract.end?.toISOString(),
    );
    Object.assign(contract, {
      ...(body.client_id !== undefined && { clientId: body.client_id }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.currency_id !== undefined && { currencyId: body.currency_id, currency: undefined }),
      ...(body.user_positions_header_id !== undefined && {
        userPositionsHeaderId: body.user_positions_header_id,
      }),
      ...(body.json_integrations !== undefined && { jsonIntegrations: body.json_integrations }),
      ...(body.type !== undefined && { type: body.type }),
      ...(body.source !== undefined && { source: body.source }),
      ...(body.status !== undefined && { status: body.status }),
      ...(body.frequency !== undefined && { frequency: body.frequency }),
      ...(body.url !== undefined && { url: body.url }),
      ...(body.url_name !== undefined && { urlName: body.url_name }),
      start: start ?? null,
      end: end ?? null,
    });
    await this.contracts.save({ ...contract, members: undefined });
    return this.get(id);
  }

  /** Soft delete (docs/spec/interfaces.md): answers the contract with `deleted_at` and its currency. */
  async remove(id: number): Promise<Contract> {
    const contract = await this.get(id);
    await this.contracts.softRemove({ ...contract, members: undefined });
    return this.get(id, { withDeleted: true });
  }

  async addUsers(id: number, userIds: number[]): Promise<Contract> {
    await this.get(id);
    // In the request's scope, so UserMemberships' own statements carry the company (row-level security).
    await this.contracts.run(() => this.memberships.add(ContractMember, 'contractId', id, userIds));
    return this.get(id);
  }

  async removeUsers(id: number, userIds: number[]): Promise<Contract> {
    await this.get(id);
    await this.contracts.run(() => this.memberships.remove(ContractMember, 'contractId', id, userIds));
    return this.get(id);
  }

  private withDetails() {
    return this.contracts
      .queryBuilder('contract')
      .leftJoinAndSelect('contract.currency', 'currency')
      .leftJoinAndSelect('contract.members', 'member');
  }
}

function period(start: string | undefined, end: string | undefined): { start?: Date; end?: Date } {
  const parsed = {
    start: start === undefined ? undefined : new Date(start),
    end: end === undefined ? undefined : new Date(end),
  };
  for (const field of ['start', 'end'] as const) {
    if (parsed[field] !== undefined && Number.isNaN(parsed[field].getTime())) {
      throw new RequestValidationError([
        { field, validation: 'isDate', message: `${field} must be a real date` },
      ]);
    }
  }
  if (parsed.start && parsed.end && parsed.start > parsed.end) {
    throw new RequestValidationError([
      { field: 'end', validation: 'notBeforeStart', message: 'end must not be before start' },
    ]);
  }
  return parsed;
}
