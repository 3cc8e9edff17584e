import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Client } from './client.entity';

/** Clients of the request's company. */
@Injectable()
export class ClientsRepository extends FeatureRepository<Client> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Client,
      alias: 'client',
      filters: {
        name: { kind: 'text', column: 'name' },
        archived: { kind: 'boolean', column: 'archived' },
        currency_id: { kind: 'integer', column: 'currency_id' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Client ${id}`),
    });
  }
}
