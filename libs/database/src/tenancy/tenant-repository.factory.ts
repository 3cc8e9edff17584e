import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { DataSource, type EntityTarget } from 'typeorm';
import { TenantRepository, type CompanyOwned } from './tenant-repository';

/** Hands out tenant-scoped repositories; features inject this instead of raw TypeORM repositories. */
@Injectable()
export class TenantRepositoryFactory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly principals: PrincipalContext,
  ) {}

  for<Entity extends CompanyOwned>(entity: EntityTarget<Entity>): TenantRepository<Entity> {
    return new TenantRepository(this.dataSource.getRepository(entity), this.principals);
  }
}
