import { Injectable } from '@nestjs/common';
import type { EntityTarget } from 'typeorm';
import type { CompanyOwned, TenantRepository } from './tenant-repository';
import { RequestTenantScope } from './tenant-scopes';

/** Hands out repositories of the request's scope (RequestTenantScope.repository). */
@Injectable()
export class TenantRepositoryFactory {
  constructor(private readonly scope: RequestTenantScope) {}

  for<Entity extends CompanyOwned>(entity: EntityTarget<Entity>): TenantRepository<Entity> {
    return this.scope.repository(entity);
  }
}
