import { createParamDecorator, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal';

/** Controller parameter: the verified caller, `{companyId, roleId, userId | clientId}`. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!principal) {
      throw new UnauthorizedException('Authentication required');
    }
    return principal;
  },
);
