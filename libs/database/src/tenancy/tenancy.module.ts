import { Global, Module } from '@nestjs/common';
import { TenantRepositoryFactory } from './tenant-repository.factory';

@Global()
@Module({ providers: [TenantRepositoryFactory], exports: [TenantRepositoryFactory] })
export class TenancyModule {}
