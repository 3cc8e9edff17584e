import { Global, Module } from '@nestjs/common';
import { RuntimeRoleCheck } from './runtime-role.check';
import { TenantRepositoryFactory } from './tenant-repository.factory';
import { RequestTenantScope, TenantScopes } from './tenant-scopes';

@Global()
@Module({
  providers: [RequestTenantScope, TenantScopes, TenantRepositoryFactory, RuntimeRoleCheck],
  exports: [RequestTenantScope, TenantScopes, TenantRepositoryFactory],
})
export class TenancyModule {}
