import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import type { Client } from './client.entity';
import { ClientsRepository } from './clients.repository';
import { ClientDto } from './dto/client.dto';
import type { CreateClientDto, UpdateClientDto } from './dto/create-client.dto';

@Injectable()
export class ClientsService {
  constructor(private readonly clients: ClientsRepository) {}

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

  list(query: ListQueryDto): Promise<ListAnswer<ClientDto>> {
    return this.clients.list(query, (client) => ClientDto.from(client));
  }

  get(id: number): Promise<Client> {
    return this.clients.get(id);
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
