export interface MainApiClientOptions {
  /** e.g. http://main-api:3000 (no /v1). */
  baseUrl: string;
  /** Deadline of one call, retries included: a caller never waits longer for main-api. */
  timeoutMs: number;
  /** Extra attempts for idempotent calls after a network error or a 502/503/504. Default 2. */
  retries?: number;
  /** Base of the exponential backoff between attempts (full jitter). Default 50 ms. */
  retryBaseDelayMs?: number;
  /** Consecutive failed calls that open the circuit (default 5) and how long it stays open (5 s). */
  circuitBreaker?: { failureThreshold: number; cooldownMs: number };
  /**
   * The service called, as errors and logs name it. Default `main-api`; integrations also reaches
   * the planner's change feed with a client of its own (`planner`).
   */
  upstream?: string;
}

export const MAIN_API_CLIENT_OPTIONS = Symbol('MAIN_API_CLIENT_OPTIONS');

/** Who is calling: their bearer token is forwarded so their company and permissions apply. */
export interface CallerContext {
  authorization?: string;
  requestId?: string;
}
