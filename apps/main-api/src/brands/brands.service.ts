import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import type { Brand } from './brand.entity';
import { BrandsRepository } from './brands.repository';
import { BrandDto, type CreateBrandDto, type UpdateBrandDto } from './dto/brand.dto';

@Injectable()
export class BrandsService {
  constructor(private readonly brands: BrandsRepository) {}

  async create(body: CreateBrandDto): Promise<Brand> {
    await this.brands.requireClient(body.client_id);
    return this.brands.create({
      clientId: body.client_id,
      name: body.name,
      description: body.description ?? null,
    });
  }

  list(query: ListQueryDto): Promise<ListAnswer<BrandDto>> {
    return this.brands.list(query, (brand) => BrandDto.from(brand));
  }

  get(id: number): Promise<Brand> {
    return this.brands.get(id);
  }

  async update(id: number, body: UpdateBrandDto): Promise<Brand> {
    const brand = await this.get(id);
    if (body.client_id !== undefined) {
      await this.brands.requireClient(body.client_id);
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
