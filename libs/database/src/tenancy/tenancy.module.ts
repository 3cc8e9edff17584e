import { Global, Module } from '@nestjs/common';
import { DatabasePoolMetrics } from '../pool-metrics';
import { RuntimeRoleCheck } from './runtime-role.check';
import { RequestTenantScope, TenantScopes } from './tenant-scopes';

@Global()
@Module({
  // The pool's metrics live here because every service's database access goes through this module.
  providers: [RequestTenantScope, TenantScopes, RuntimeRoleCheck, DatabasePoolMetrics],
  exports: [RequestTenantScope, TenantScopes],
})
export class TenancyModule {}
