export interface MainApiClientOptions {
  /** e.g. http://main-api:3000 (no /v1). */
  baseUrl: string;
  timeoutMs: number;
  /** Extra attempts for idempotent calls after a network error or a 502/503/504. */
  retries?: number;
}

export const MAIN_API_CLIENT_OPTIONS = Symbol('MAIN_API_CLIENT_OPTIONS');

/** Who is calling: their bearer token is forwarded so their company and permissions apply. */
export interface CallerContext {
  authorization?: string;
  requestId?: string;
}
