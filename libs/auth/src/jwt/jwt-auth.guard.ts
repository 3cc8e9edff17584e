import { Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { IS_PUBLIC_KEY } from '../public.decorator';
import type { Principal } from '../principal/principal';
import { PrincipalContext } from '../principal/principal-context';
import { VerifiedTokenCache } from './verified-token-cache';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/**
 * Global guard: every route needs a valid bearer token unless it says `@Public()`. Any failure is a
 * 401 with a short reason, never the verifier's internals.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  private readonly verified = new VerifiedTokenCache();

  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalContext,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) {
      return true;
    }
    const request = context
      .switchToHttp()
      .getRequest<{ headers: { authorization?: unknown }; user?: Principal }>();
    const token =
      typeof request.headers.authorization === 'string'
        ? BEARER.exec(request.headers.authorization)?.[1]
        : undefined;
    const known = token === undefined ? undefined : this.verified.get(token);
    if (known) {
      request.user = known;
      this.principals.set(known);
      return true;
    }
    const allowed = (await super.canActivate(context)) as boolean;
    if (allowed && token !== undefined && request.user) {
      this.verified.remember(token, request.user);
    }
    return allowed;
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
