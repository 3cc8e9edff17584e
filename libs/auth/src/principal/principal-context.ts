import { Injectable, UnauthorizedException } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import type { Principal } from './principal';

// A symbol: nestjs-cls reads symbol keys directly, string keys as dotted paths (split on each read).
const PRINCIPAL_KEY = Symbol('platform:principal');
const CHANGE_ORIGIN_KEY = Symbol('platform:change-origin');

/**
 * The verified caller of the current request, readable anywhere below the controller (repositories
 * included) without passing it by hand: the tenant scope reads the company from here.
 */
@Injectable()
export class PrincipalContext {
  constructor(private readonly cls: ClsService) {}

  set(principal: Principal): void {
    this.cls.set(PRINCIPAL_KEY, principal);
  }

  /** The caller; fails closed (401) when there is none, e.g. on a route that forgot to authenticate. */
  get(): Principal {
    const principal = this.cls.isActive() ? this.cls.get<Principal | undefined>(PRINCIPAL_KEY) : undefined;
    if (!principal) {
      throw new UnauthorizedException('Authentication required');
    }
    return principal;
  }

  companyId(): number {
    return this.get().companyId;
  }

  /** Marks the request's changes as coming from an integration source (main-api's ChangeOriginGuard). */
  setChangeOrigin(origin: string): void {
    this.cls.set(CHANGE_ORIGIN_KEY, origin);
  }

  /** The integration source the request's changes come from, if it declared a verified one. */
  changeOrigin(): string | undefined {
    return this.cls.isActive() ? this.cls.get<string | undefined>(CHANGE_ORIGIN_KEY) : undefined;
  }
}
