import { Injectable, Optional, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { IS_PUBLIC_KEY } from '../public.decorator';
import type { Principal } from '../principal/principal';
import { PrincipalContext } from '../principal/principal-context';
import { FRESH_TOKEN_STATUS_KEY } from '../revocation/fresh-token-status.decorator';
import { TokenStatusSource } from '../revocation/token-status-source';
import { VerifiedTokenCache } from './verified-token-cache';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

export const REVOKED_TOKEN_MESSAGE = 'Access token has been revoked';

/**
 * Global guard: every route needs a valid bearer token unless it says `@Public()`. Any failure is a
 * 401 with a short reason, never the verifier's internals.
 *
 * A token that verifies is then checked against revocation (TokenStatusSource) once per cache
 * period: the verified-token cache keeps an entry for 30 s from the moment its status was confirmed
 * live, so a revocation reaches this replica within 30 s (docs/decisions.md, "Revocation"). A token
 * whose status cannot be confirmed is refused (the source's 503), never taken as live; routes marked
 * `@FreshTokenStatus()` (those that mint secrets) confirm it afresh on every request.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  private readonly verified = new VerifiedTokenCache();
  // Revoked stays revoked: remembered until the token's exp (at most an hour), so a client that
  // keeps sending one costs neither a signature check nor a question.
  private readonly revoked = new VerifiedTokenCache(10_000, 3_600_000);

  constructor(
    private readonly reflector: Reflector,
    private readonly principals: PrincipalContext,
    @Optional() private readonly tokenStatus?: TokenStatusSource,
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
    if (token !== undefined && this.revoked.get(token)) {
      throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    }
    const known = token === undefined ? undefined : this.verified.get(token);
    if (known && token !== undefined) {
      const fresh = this.reflector.getAllAndOverride<boolean | undefined>(FRESH_TOKEN_STATUS_KEY, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (fresh) {
        // Not re-remembered: an entry lasts 30 s from its signature check (verified-token-cache.ts).
        await this.refuseIfRevoked(token, known);
      }
      request.user = known;
      this.principals.set(known);
      return true;
    }
    const allowed = (await super.canActivate(context)) as boolean;
    if (allowed && token !== undefined && request.user) {
      await this.refuseIfRevoked(token, request.user);
      this.verified.remember(token, request.user);
    }
    return allowed;
  }

  /**
   * Asks the token's status now and throws 401 when it was revoked (remembered as such). When the
   * source cannot tell, its error (503) propagates: the token is refused, not taken as live.
   */
  private async refuseIfRevoked(token: string, principal: Principal): Promise<void> {
    if (this.tokenStatus && (await this.tokenStatus.isRevoked(principal, token))) {
      this.verified.forget(token);
      this.revoked.remember(token, principal);
      throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    }
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
