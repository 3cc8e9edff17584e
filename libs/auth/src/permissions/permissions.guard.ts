import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '../principal/principal';
import { roleHasPermission, type Permission } from './permission';
import { REQUIRED_PERMISSION_KEY } from './require-permission.decorator';

/** Global guard, after authentication: the caller's role must grant the route's permission. */
@Injectable()
export class PermissionsGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!required) {
      return true;
    }
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!principal || !roleHasPermission(principal.roleId, required)) {
      throw new ForbiddenException('Your role does not allow this operation');
    }
    return true;
  }
}
