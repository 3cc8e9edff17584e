import {
  HttpException,
  SetMetadata,
  HttpStatus,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { currentBatchItem } from './batch-item';
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

const QUOTA_COST = 'platform:quota-cost';

/** How many requests a route's request counts for, from its parsed body (a batch: its operations). */
export type QuotaCostOf = (body: unknown) => number;

/** Marks a route whose request counts for more than one (TenantQuotaGuard). */
export const QuotaCost = (costOf: QuotaCostOf): MethodDecorator => SetMetadata(QUOTA_COST, costOf);

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
  constructor(
    @Inject(TenantQuotas) private readonly quotas: TenantQuotas,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.quotas.enabled) {
      return true;
    }
    const http = context.switchToHttp();
    const request = http.getRequest<{ user?: Principal; body?: unknown }>();
    const principal = request.user;
    // An operation of a batch was counted with its batch (QuotaCost), before any of them ran.
    if (!principal || currentBatchItem()) {
      return true;
    }
    const costOf = this.reflector.get<QuotaCostOf | undefined>(QUOTA_COST, context.getHandler());
    const decision = this.quotas.take(principal.companyId, undefined, costOf ? costOf(request.body) : 1);
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
