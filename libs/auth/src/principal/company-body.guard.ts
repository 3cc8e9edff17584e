import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal';

const COMPANY_FIELDS = ['companyId', 'company_id'] as const;

/**
 * Global guard, before validation strips unknown fields: a body (or a body's direct child object,
 * e.g. `oldAllocation`) naming a company other than the token's is refused with 403 (decisions §2).
 */
@Injectable()
export class CompanyBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ user?: Principal; body?: unknown }>();
    if (!request.user || typeof request.body !== 'object' || request.body === null) {
      return true;
    }
    const candidates = [
      request.body,
      ...Object.values(request.body).filter((value) => typeof value === 'object' && value !== null),
    ];
    for (const candidate of candidates as Record<string, unknown>[]) {
      for (const field of COMPANY_FIELDS) {
        const value = candidate[field];
        if (value !== undefined && value !== null && String(value) !== String(request.user.companyId)) {
          throw new ForbiddenException(`${field} does not match the company of your access token`);
        }
      }
    }
    return true;
  }
}
