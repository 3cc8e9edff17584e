import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import type { Contract } from './contract.entity';
import { ContractsRepository } from './contracts.repository';
import { ContractDto, type CreateContractDto, type UpdateContractDto } from './dto/contract.dto';

@Injectable()
export class ContractsService {
  constructor(private readonly contracts: ContractsRepository) {}

  async create(body: CreateContractDto): Promise<Contract> {
    await this.contracts.requireClient(body.client_id);
    if (body.user_positions_header_id) {
      await this.contracts.requireRatecard(body.user_positions_header_id);
    }
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

  list(query: ListQueryDto): Promise<ListAnswer<ContractDto>> {
    return this.contracts.list(query, (contract) => ContractDto.from(contract));
  }

  get(id: number): Promise<Contract> {
    return this.contracts.get(id);
  }

  async update(id: number, body: UpdateContractDto): Promise<Contract> {
    const contract = await this.get(id);
    if (body.client_id !== undefined) {
      await this.contracts.requireClient(body.client_id);
    }
    if (body.user_positions_header_id) {
      await this.contracts.requireRatecard(body.user_positions_header_id);
    }
    const { start, end } = period(
      body.start ?? contract.start?.toISOString(),
      body.end ?? contract.end?.toISOString(),
    );
    Object.assign(contract, {
      ...(body.client_id !== undefined && { clientId: body.client_id }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.currency_id !== undefined && { currencyId: body.currency_id }),
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
    await this.contracts.save(contract);
    return this.get(id);
  }

  /** Soft delete (docs/spec/interfaces.md): answers the contract with `deleted_at` and its currency. */
  async remove(id: number): Promise<Contract> {
    const contract = await this.get(id);
    await this.contracts.softRemove(contract);
    return this.contracts.getWithDeleted(id);
  }

  async addUsers(id: number, userIds: number[]): Promise<Contract> {
    await this.get(id);
    await this.contracts.addMembers(id, userIds);
    return this.get(id);
  }

  async removeUsers(id: number, userIds: number[]): Promise<Contract> {
    await this.get(id);
    await this.contracts.removeMembers(id, userIds);
    return this.get(id);
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
