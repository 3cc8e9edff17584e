import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal';

const COMPANY_FIELDS = ['companyId', 'company_id'] as const;

/**
 * Objects and arrays looked at per body. Bodies are already size-limited (BODY_LIMIT_BYTES); this
 * also bounds the time one request can spend here, whatever the shape of its JSON.
 */
export const COMPANY_BODY_MAX_NODES = 10_000;

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Global guard, before validation strips unknown fields: a body naming a company other than the
 * token's anywhere (top level, nested objects at any depth, array items) is refused with 403
 * (docs/spec/decisions.md §2).
 */
@Injectable()
export class CompanyBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ user?: Principal; body?: unknown }>();
    if (!request.user || !isObject(request.body)) {
      return true;
    }
    const mismatch = foreignCompanyField(request.body, request.user.companyId);
    if (mismatch) {
      throw new ForbiddenException(`${mismatch} does not match the company of your access token`);
    }
    return true;
  }
}

/**
 * The first company field naming another company, walking with an explicit stack: a deeply nested
 * body must not overflow the call stack, which recursion would.
 */
function foreignCompanyField(body: object, companyId: number): string | undefined {
  const pending: object[] = [body];
  for (let visited = 0; pending.length > 0 && visited < COMPANY_BODY_MAX_NODES; visited += 1) {
    const node = pending.pop() as object;
    if (!Array.isArray(node)) {
      for (const field of COMPANY_FIELDS) {
        const value = (node as Record<string, unknown>)[field];
        if (value !== undefined && value !== null && !isSameCompany(value, companyId)) {
          return field;
        }
      }
    }
    for (const child of Object.values(node)) {
      if (isObject(child)) {
        pending.push(child);
      }
    }
  }
  return undefined;
}

function isSameCompany(value: unknown, companyId: number): boolean {
  return (typeof value === 'number' || typeof value === 'string') && String(value) === String(companyId);
}
