/** A dependency the service needs before it can serve traffic (besides its database). */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; rejects (or is aborted) otherwise. */
  check(signal: AbortSignal): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
