/** How much each company may ask of one service (`QUOTA_*` settings, README "Quotas"). */
export interface QuotaSettings {
  /** Requests a minute per company, all replicas together; 0: no quota. */
  requestsPerMinute: number;
  /** Replicas sharing it: each keeps 1/N in memory. */
  replicas: number;
  /** Companies with another quota. */
  overrides: ReadonlyMap<number, number>;
}

/** `QUOTA_COMPANY_OVERRIDES` (`12:6000,40:300`) as a map of company id to requests a minute. */
export function parseQuotaOverrides(text: string | undefined): ReadonlyMap<number, number> {
  const overrides = new Map<number, number>();
  for (const pair of (text ?? '').split(',').filter(Boolean)) {
    const [company, perMinute] = pair.split(':').map(Number);
    overrides.set(company, perMinute);
  }
  return overrides;
}

/** What one request's counting found: whether it may go on, and what its answer announces. */
export interface QuotaDecision {
  allowed: boolean;
  /** The company's quota a minute (all replicas). */
  limit: number;
  /** Requests left, estimated for all replicas from this one's share. */
  remaining: number;
  /** Seconds until the quota is whole again. */
  resetSeconds: number;
  /** When refused: seconds until one request is allowed again. */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  /** performance.now() of the last refill. */
  at: number;
}

const WINDOW_MS = 60_000;
/** Past this many companies, buckets that are full again are dropped (they would start full anyway). */
const SWEEP_ABOVE = 10_000;

/**
 * Per-company token buckets in this replica's memory: each holds 1/replicas of the company's
 * quota a minute and refills continuously. No database write and no shared store per request:
 * behind a load balancer that spreads requests evenly, the replicas together allow about the
 * quota; a replica that gets more than its share refuses early (docs/decisions.md, "Quotas").
 */
export class TenantQuotas {
  private readonly buckets = new Map<number, Bucket>();

  constructor(private readonly settings: QuotaSettings) {}

  /** Whether quotas apply at all. */
  get enabled(): boolean {
    return this.settings.requestsPerMinute > 0 || this.settings.overrides.size > 0;
  }

  /**
   * Counts a request of `companyId` worth `cost` requests (a batch: one per operation), at most the
   * whole bucket, so a batch larger than a replica's share waits for a full bucket rather than never
   * passing. Refused requests are not counted.
   */
  take(companyId: number, now = performance.now(), cost = 1): QuotaDecision {
    const limit = this.settings.overrides.get(companyId) ?? this.settings.requestsPerMinute;
    if (limit <= 0) {
      return { allowed: true, limit: 0, remaining: 0, resetSeconds: 0, retryAfterSeconds: 0 };
    }
    const replicas = this.settings.replicas;
    const capacity = Math.max(1, Math.ceil(limit / replicas));
    const perMs = capacity / WINDOW_MS;
    let bucket = this.buckets.get(companyId);
    if (!bucket) {
      this.sweep(now);
      bucket = { tokens: capacity, at: now };
      this.buckets.set(companyId, bucket);
    }
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    const needed = Math.min(Math.max(1, cost), capacity);
    const allowed = bucket.tokens >= needed;
    if (allowed) {
      bucket.tokens -= needed;
    }
    return {
      allowed,
      limit,
      remaining: Math.min(limit, Math.floor(bucket.tokens) * replicas),
      resetSeconds: Math.ceil((capacity - bucket.tokens) / perMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((needed - bucket.tokens) / perMs / 1000)),
    };
  }

  private sweep(now: number): void {
    if (this.buckets.size < SWEEP_ABOVE) {
      return;
    }
    for (const [companyId, bucket] of this.buckets) {
      const limit = this.settings.overrides.get(companyId) ?? this.settings.requestsPerMinute;
      const capacity = Math.ceil(limit / this.settings.replicas);
      if (bucket.tokens + ((now - bucket.at) * capacity) / WINDOW_MS >= capacity) {
        this.buckets.delete(companyId);
      }
    }
  }
}

/** The quota settings of a service's environment (`QUOTA_*`, BaseServiceEnv). */
export function quotaSettingsOf(env: {
  QUOTA_REQUESTS_PER_MINUTE: number;
  QUOTA_REPLICAS: number;
  QUOTA_COMPANY_OVERRIDES?: string;
}): QuotaSettings {
  return {
    requestsPerMinute: env.QUOTA_REQUESTS_PER_MINUTE,
    replicas: env.QUOTA_REPLICAS,
    overrides: parseQuotaOverrides(env.QUOTA_COMPANY_OVERRIDES),
  };
}
