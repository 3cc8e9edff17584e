import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Principal } from '../principal/principal';
import { TenantQuotas } from './tenant-quotas';

/** The policy's name in the RateLimit fields. */
const POLICY = 'tenant';

/** 429: the company has used its quota for now; its answer says when to retry. */
export class QuotaExceededError extends HttpException {
  constructor(retryAfterSeconds: number) {
    super(
      {
        message: `Your company's request quota is used up; retry in ${retryAfterSeconds} s`,
        retryAfterSeconds,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/**
 * Global guard after authentication: counts the request against its company's quota (TenantQuotas)
 * and announces it on the answer, errors included, with the IETF RateLimit fields
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "tenant";q=<a minute>;w=60` and
 * `RateLimit: "tenant";r=<left>;t=<seconds until whole>`. Past it, 429 with `Retry-After` in the
 * service's error body, before anything else of the request runs: a company over its quota costs
 * the others no database work. Public routes (no company) are not counted.
 */
@Injectable()
export class TenantQuotaGuard implements CanActivate {
  constructor(@Inject(TenantQuotas) private readonly quotas: TenantQuotas) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.quotas.enabled) {
      return true;
    }
    const http = context.switchToHttp();
    const principal = http.getRequest<{ user?: Principal }>().user;
    if (!principal) {
      return true;
    }
    const decision = this.quotas.take(principal.companyId);
    if (decision.limit > 0) {
      const reply = http.getResponse<{ header(name: string, value: string): unknown }>();
      reply.header('ratelimit-policy', `"${POLICY}";q=${decision.limit};w=60`);
      reply.header('ratelimit', `"${POLICY}";r=${decision.remaining};t=${decision.resetSeconds}`);
    }
    if (!decision.allowed) {
      throw new QuotaExceededError(decision.retryAfterSeconds);
    }
    return true;
  }
}
