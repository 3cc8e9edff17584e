import { parseQuotaOverrides, TenantQuotas } from './tenant-quotas';

describe('TenantQuotas', () => {
  const quotas = (requestsPerMinute: number, replicas = 1, overrides = '') =>
    new TenantQuotas({ requestsPerMinute, replicas, overrides: parseQuotaOverrides(overrides) });

  it('allows a company its quota at once, then refuses until the bucket refills', () => {
    const counter = quotas(60);
    const decisions = Array.from({ length: 61 }, () => counter.take(1, 0));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(60);
    expect(decisions[0]).toMatchObject({ limit: 60, remaining: 59, resetSeconds: 1 });
    expect(decisions[60]).toMatchObject({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 1,
      resetSeconds: 60,
    });
    // One request a second comes back.
    expect(counter.take(1, 999).allowed).toBe(false);
    expect(counter.take(1, 1000).allowed).toBe(true);
  });

  it('counts a request worth several (a batch) whole or not at all, and never more than a full bucket', () => {
    const counter = quotas(60);
    expect(counter.take(1, 0, 50)).toMatchObject({ allowed: true, remaining: 10 });
    const refused = counter.take(1, 0, 11);
    expect(refused).toMatchObject({ allowed: false, remaining: 10, retryAfterSeconds: 1 });
    // Larger than the bucket: it waits for a full bucket, then takes all of it.
    expect(counter.take(1, 0, 500)).toMatchObject({ allowed: false, retryAfterSeconds: 50 });
    expect(counter.take(1, 50_000, 500)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps companies apart', () => {
    const counter = quotas(2);
    counter.take(1, 0);
    counter.take(1, 0);
    expect(counter.take(1, 0).allowed).toBe(false);
    expect(counter.take(2, 0).allowed).toBe(true);
  });

  it('holds 1/replicas of the quota and announces what is left for all of them', () => {
    const counter = quotas(600, 3);
    const first = counter.take(1, 0);
    expect(first).toMatchObject({ limit: 600, remaining: 199 * 3 });
    for (let i = 1; i < 200; i += 1) {
      counter.take(1, 0);
    }
    expect(counter.take(1, 0).allowed).toBe(false);
  });

  it('applies a company override, and 0 as no quota', () => {
    const counter = quotas(0, 1, '7:1');
    expect(counter.enabled).toBe(true);
    expect(counter.take(7, 0).allowed).toBe(true);
    expect(counter.take(7, 0).allowed).toBe(false);
    expect(counter.take(8, 0)).toMatchObject({ allowed: true, limit: 0 });
    expect(quotas(0).enabled).toBe(false);
  });
});
