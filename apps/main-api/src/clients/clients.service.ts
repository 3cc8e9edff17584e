import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { Client } from './client.entity';
import { ClientDto } from './dto/client.dto';
import type { CreateClientDto, UpdateClientDto } from './dto/create-client.dto';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const CLIENT_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  archived: { kind: 'boolean', column: 'archived' },
  currency_id: { kind: 'integer', column: 'currency_id' },
};

@Injectable()
export class ClientsService {
  private readonly clients: TenantRepository<Client>;

  constructor(repositories: TenantRepositoryFactory) {
    this.clients = repositories.for(Client);
  }

  async create(body: CreateClientDto): Promise<Client> {
    return this.clients.create({
      name: body.name,
      email: body.email ?? null,
      phone: body.phone ?? null,
      address: body.address ?? null,
      taxId: body.tax_id ?? null,
      currencyId: body.currency_id ?? 1,
      archived: body.archived ?? false,
    });
  }

  list(query: ListQueryDto): Promise<Paginated<ClientDto> | ClientDto[]> {
    return this.clients.paginate(
      this.clients.queryBuilder('client'),
      'client',
      query,
      CLIENT_FILTERS,
      (client) => ClientDto.from(client),
    );
  }

  async get(id: number): Promise<Client> {
    const client = await this.clients.findById(id);
    if (!client) {
      throw new ResourceNotFoundError(`Client ${id}`);
    }
    return client;
  }

  async update(id: number, body: UpdateClientDto): Promise<Client> {
    const client = await this.get(id);
    Object.assign(client, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.email !== undefined && { email: body.email }),
      ...(body.phone !== undefined && { phone: body.phone }),
      ...(body.address !== undefined && { address: body.address }),
      ...(body.tax_id !== undefined && { taxId: body.tax_id }),
      ...(body.currency_id !== undefined && { currencyId: body.currency_id }),
      ...(body.archived !== undefined && { archived: body.archived }),
    });
    return this.clients.save(client);
  }

  /** Soft delete: the client keeps its history (projects, fees, transactions). */
  async remove(id: number): Promise<Client> {
    return this.clients.softRemove(await this.get(id));
  }
}
