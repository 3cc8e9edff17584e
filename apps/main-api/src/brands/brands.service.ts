import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { Client } from '../clients/client.entity';
import { Brand } from './brand.entity';
import { BrandDto, type CreateBrandDto, type UpdateBrandDto } from './dto/brand.dto';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const BRAND_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  client_id: { kind: 'integer', column: 'client_id' },
};

@Injectable()
export class BrandsService {
  private readonly brands: TenantRepository<Brand>;
  private readonly clients: TenantRepository<Client>;

  constructor(repositories: TenantRepositoryFactory) {
    this.brands = repositories.for(Brand);
    this.clients = repositories.for(Client);
  }

  async create(body: CreateBrandDto): Promise<Brand> {
    await this.clients.requireReference(body.client_id, 'client_id');
    return this.brands.create({
      clientId: body.client_id,
      name: body.name,
      description: body.description ?? null,
    });
  }

  list(query: ListQueryDto): Promise<Paginated<BrandDto> | BrandDto[]> {
    return this.brands.paginate(this.brands.queryBuilder('brand'), 'brand', query, BRAND_FILTERS, (brand) =>
      BrandDto.from(brand),
    );
  }

  async get(id: number): Promise<Brand> {
    const brand = await this.brands.findById(id);
    if (!brand) {
      throw new ResourceNotFoundError(`Brand ${id}`);
    }
    return brand;
  }

  async update(id: number, body: UpdateBrandDto): Promise<Brand> {
    const brand = await this.get(id);
    if (body.client_id !== undefined) {
      await this.clients.requireReference(body.client_id, 'client_id');
      brand.clientId = body.client_id;
    }
    if (body.name !== undefined) {
      brand.name = body.name;
    }
    if (body.description !== undefined) {
      brand.description = body.description;
    }
    return this.brands.save(brand);
  }

  async remove(id: number): Promise<Brand> {
    return this.brands.softRemove(await this.get(id));
  }
}
