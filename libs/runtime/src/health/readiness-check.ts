/**
 * A service the contract's `/health/ready` also checks besides the database (main-api, for planner
 * and integrations). `/health/ready/self`, the readiness probe, does not check it.
 */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or is aborted) otherwise. */
  check(signal: AbortSignal): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
