import { Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { IS_PUBLIC_KEY } from '../public.decorator';
import type { Principal } from '../principal/principal';
import { PrincipalContext } from '../principal/principal-context';

/**
 * Global guard: every route needs a valid bearer token unless it says `@Public()`. Any failure is a
 * 401 with a short reason, never the verifier's internals.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalContext,
  ) {
    super();
  }

  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) {
      return true;
    }
    return super.canActivate(context) as Promise<boolean>;
  }

  override handleRequest<TUser = Principal>(error: unknown, principal: TUser | false, info: unknown): TUser {
    if (error || !principal) {
      throw new UnauthorizedException(reasonFor(error ?? info));
    }
    this.principals.set(principal as unknown as Principal);
    return principal;
  }
}

function reasonFor(problem: unknown): string {
  const name = problem instanceof Error ? problem.name : '';
  const message = problem instanceof Error ? problem.message : '';
  if (name === 'TokenExpiredError') {
    return 'Access token has expired';
  }
  if (message === 'No auth token') {
    return 'Missing bearer token: send Authorization: Bearer <access_token>';
  }
  return 'Invalid access token';
}
