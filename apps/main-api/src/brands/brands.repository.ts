import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Brand } from './brand.entity';

/** Brands of the request's company, and the client a brand belongs to. */
@Injectable()
export class BrandsRepository extends FeatureRepository<Brand> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Brand,
      alias: 'brand',
      filters: {
        name: { kind: 'text', column: 'name' },
        client_id: { kind: 'integer', column: 'client_id' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Brand ${id}`),
    });
  }

  /** The client a body names (`client_id`), or a 400 naming that field. */
  requireClient(id: number): Promise<Client> {
    return this.scope.repository(Client).requireReference(id, 'client_id');
  }
}
