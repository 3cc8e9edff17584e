import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Product } from './product.entity';

/** Products of the request's company, and the client and brand a product belongs to. */
@Injectable()
export class ProductsRepository extends FeatureRepository<Product> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Product,
      alias: 'product',
      filters: {
        name: { kind: 'text', column: 'name' },
        client_id: { kind: 'integer', column: 'client_id' },
        brand_id: { kind: 'integer', column: 'brand_id' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Product ${id}`),
    });
  }

  /** The client a body names (`client_id`), or a 400 naming that field. */
  requireClient(id: number): Promise<Client> {
    return this.scope.repository(Client).requireReference(id, 'client_id');
  }

  /** The brand a body names (`brand_id`), or a 400 naming that field. */
  requireBrand(id: number): Promise<Brand> {
    return this.scope.repository(Brand).requireReference(id, 'brand_id');
  }
}
