import type { Registry } from 'prom-client';
import type { Principal } from '../principal/principal';

/**
 * Whether a verified access token still counts: its signature proves who issued it, not that its
 * subject was not deleted, demoted or revoked since, nor its login revoked. main-api answers from
 * its database; planner and integrations ask main-api.
 */
export abstract class TokenStatusSource {
  /**
   * True when the token was revoked; `token` is its exact text (for asking main-api about it).
   * Rejects (e.g. `TokenStatusUnavailableError`, a 503) when the status cannot be confirmed now:
   * the guard then refuses the token, never takes it as live.
   */
  abstract isRevoked(principal: Principal, token: string): Promise<boolean>;

  /** Puts the source's own metrics, if it has any, in the service's registry (libs/runtime calls it). */
  registerMetrics(_registry: Registry): void {
    // A source that keeps no metrics: nothing to register.
  }
}
