import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal';

const COMPANY_FIELDS = ['companyId', 'company_id'] as const;

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null;

/**
 * Global guard, before validation strips unknown fields: a body (or a body's direct child object,
 * e.g. `oldAllocation`) naming a company other than the token's is refused with 403 (decisions §2).
 */
@Injectable()
export class CompanyBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ user?: Principal; body?: unknown }>();
    if (!request.user || !isObject(request.body)) {
      return true;
    }
    const candidates: JsonObject[] = [request.body, ...Object.values(request.body).filter(isObject)];
    for (const candidate of candidates) {
      for (const field of COMPANY_FIELDS) {
        const value = candidate[field];
        if (value !== undefined && value !== null && !isSameCompany(value, request.user.companyId)) {
          throw new ForbiddenException(`${field} does not match the company of your access token`);
        }
      }
    }
    return true;
  }
}

function isSameCompany(value: unknown, companyId: number): boolean {
  return (typeof value === 'number' || typeof value === 'string') && String(value) === String(companyId);
}
