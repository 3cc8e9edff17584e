import type { Registry } from 'prom-client';
import type { Principal } from '../principal/principal';

/** A verified token to check: its principal, and its exact text (for asking main-api about it). */
export interface TokenToCheck {
  principal: Principal;
  token: string;
}

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

  /**
   * For each token, in order, whether it was revoked: the periodic check of every change stream of
   * a replica. This default asks once per token; a source that can answer many in one question
   * (one statement, one request) overrides it, so an idle stream costs no question of its own.
   * Rejects as `isRevoked` does when the statuses cannot be confirmed now.
   */
  revokedAmong(tokens: readonly TokenToCheck[]): Promise<boolean[]> {
    return Promise.all(tokens.map(({ principal, token }) => this.isRevoked(principal, token)));
  }

  /** Puts the source's own metrics, if it has any, in the service's registry (libs/runtime calls it). */
  registerMetrics(_registry: Registry): void {
    // A source that keeps no metrics: nothing to register.
  }
}
