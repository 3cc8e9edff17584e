import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { ProductDto, type CreateProductDto, type UpdateProductDto } from './dto/product.dto';
import type { Product } from './product.entity';
import { ProductsRepository } from './products.repository';

@Injectable()
export class ProductsService {
  constructor(private readonly products: ProductsRepository) {}

  async create(body: CreateProductDto): Promise<Product> {
    await this.assertBrandOfClient(body.client_id, body.brand_id);
    return this.products.create({ clientId: body.client_id, brandId: body.brand_id, name: body.name });
  }

  list(query: ListQueryDto): Promise<ListAnswer<ProductDto>> {
    return this.products.list(query, (product) => ProductDto.from(product));
  }

  get(id: number): Promise<Product> {
    return this.products.get(id);
  }

  async update(id: number, body: UpdateProductDto): Promise<Product> {
    const product = await this.get(id);
    const clientId = body.client_id ?? product.clientId;
    const brandId = body.brand_id ?? product.brandId;
    if (body.client_id !== undefined || body.brand_id !== undefined) {
      await this.assertBrandOfClient(clientId, brandId);
    }
    Object.assign(product, { clientId, brandId, ...(body.name !== undefined && { name: body.name }) });
    return this.products.save(product);
  }

  async remove(id: number): Promise<Product> {
    return this.products.softRemove(await this.get(id));
  }

  private async assertBrandOfClient(clientId: number, brandId: number): Promise<void> {
    await this.products.requireClient(clientId);
    const brand = await this.products.requireBrand(brandId);
    if (brand.clientId !== clientId) {
      throw new RequestValidationError([
        {
          field: 'brand_id',
          validation: 'belongsToClient',
          message: `brand_id ${brandId} is not a brand of client ${clientId}`,
        },
      ]);
    }
  }
}
