import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { DataSource } from 'typeorm';
import type { CrossCompanyPurpose } from './tenant-context';
import { TenantScope } from './tenant-scope';

/**
 * The scope of the current request: the company of its verified token, and the change origin it
 * declared (main-api's ChangeOriginGuard). What feature repositories are built on. Outside an
 * authenticated request it fails closed (401), as PrincipalContext does.
 */
@Injectable()
export class RequestTenantScope extends TenantScope {
  constructor(dataSource: DataSource, principals: PrincipalContext) {
    super(dataSource, () => ({ companyId: principals.companyId(), changeOrigin: principals.changeOrigin() }));
  }
}

/**
 * Scopes for work that is not a request of one company: a worker handling one company's work at a
 * time (`forCompany`), or one of the few named cross-company purposes (`acrossCompanies`), each
 * allowed by its own policies on the tables it needs.
 */
@Injectable()
export class TenantScopes {
  constructor(private readonly dataSource: DataSource) {}

  forCompany(companyId: number, changeOrigin?: string): TenantScope {
    const settings = { companyId, changeOrigin };
    return new TenantScope(this.dataSource, () => settings);
  }

  acrossCompanies(purpose: CrossCompanyPurpose): TenantScope {
    const settings = { purpose };
    return new TenantScope(this.dataSource, () => settings);
  }
}
