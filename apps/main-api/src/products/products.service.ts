import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { ProductDto, type CreateProductDto, type UpdateProductDto } from './dto/product.dto';
import { Product } from './product.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const PRODUCT_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  client_id: { kind: 'integer', column: 'client_id' },
  brand_id: { kind: 'integer', column: 'brand_id' },
};

@Injectable()
export class ProductsService {
  private readonly products: TenantRepository<Product>;
  private readonly brands: TenantRepository<Brand>;
  private readonly clients: TenantRepository<Client>;

  constructor(repositories: TenantRepositoryFactory) {
    this.products = repositories.for(Product);
    this.brands = repositories.for(Brand);
    this.clients = repositories.for(Client);
  }

  async create(body: CreateProductDto): Promise<Product> {
    await this.assertBrandOfClient(body.client_id, body.brand_id);
    return this.products.create({ clientId: body.client_id, brandId: body.brand_id, name: body.name });
  }

  list(query: ListQueryDto): Promise<Paginated<ProductDto> | ProductDto[]> {
    return this.products.paginate(
      this.products.queryBuilder('product'),
      'product',
      query,
      PRODUCT_FILTERS,
      (product) => ProductDto.from(product),
    );
  }

  async get(id: number): Promise<Product> {
    const product = await this.products.findById(id);
    if (!product) {
      throw new ResourceNotFoundError(`Product ${id}`);
    }
    return product;
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
    await this.clients.requireReference(clientId, 'client_id');
    const brand = await this.brands.requireReference(brandId, 'brand_id');
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
