import { Logger } from '@nestjs/common';
import type { Principal } from '../principal/principal';
import { TokenStatusSource } from './token-status-source';

export interface RemoteTokenStatusOptions {
  /** main-api's token-status route, e.g. http://main-api:3000/v1/oauth/token-status */
  url: string;
  timeoutMs: number;
  /** After main-api could not answer, how long tokens are taken as live without asking again. */
  unreachableBackoffMs?: number;
}

/**
 * Asks main-api whether a token was revoked, sending the token itself (main-api answers 204 for a
 * live token, 401 for a revoked one), so this service holds no credential of its own. The guard
 * asks once per token and cache period, not per request.
 *
 * When main-api cannot answer, the token counts as live: revocations are made through main-api, so
 * while it is down no new one can happen, and its outage must not log every caller out.
 */
export class RemoteTokenStatus extends TokenStatusSource {
  private readonly logger = new Logger('RemoteTokenStatus');
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private unreachableUntil = 0;

  constructor(private readonly options: RemoteTokenStatusOptions) {
    super();
  }

  isRevoked(_principal: Principal, token: string): Promise<boolean> {
    if (Date.now() < this.unreachableUntil) {
      return Promise.resolve(false);
    }
    // Concurrent first requests with one token share one question.
    let answer = this.inFlight.get(token);
    if (!answer) {
      answer = this.ask(token).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, answer);
    }
    return answer;
  }

  private async ask(token: string): Promise<boolean> {
    try {
      const response = await fetch(this.options.url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body?.cancel();
      if (response.status === 401) {
        return true;
      }
      if (response.ok) {
        return false;
      }
      throw new Error(`token status answered ${response.status}`);
    } catch (error) {
      this.unreachableUntil = Date.now() + (this.options.unreachableBackoffMs ?? 5_000);
      this.logger.warn(
        `could not ask main-api whether a token was revoked; taking it as live: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
      return false;
    }
  }
}
