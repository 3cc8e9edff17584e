import type { Principal } from '../principal/principal';

/**
 * Whether a verified access token still counts: its signature proves who issued it, not that its
 * subject was not deleted, demoted or revoked since, nor its login revoked. main-api answers from
 * its database; planner and integrations ask main-api.
 */
export abstract class TokenStatusSource {
  /** True when the token was revoked; `token` is its exact text (for asking main-api about it). */
  abstract isRevoked(principal: Principal, token: string): Promise<boolean>;
}
