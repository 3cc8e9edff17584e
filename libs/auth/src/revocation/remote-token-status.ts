import { Logger } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import type { Principal } from '../principal/principal';
import { TokenStatusSource, type TokenToCheck } from './token-status-source';
import { TokenStatusUnavailableError } from './token-status-unavailable.error';

export interface RemoteTokenStatusOptions {
  /** main-api's token-status route, e.g. http://main-api:3000/v1/oauth/token-status */
  url: string;
  timeoutMs: number;
  /**
   * After `failureThreshold` questions in a row went unanswered, how long unconfirmed tokens are
   * refused (503) without asking again, so a stalled main-api costs callers an immediate 503 rather
   * than a timeout each. 2 s by default.
   */
  unreachableBackoffMs?: number;
  /** Unanswered questions in a row that start the back-off; 3 by default. */
  failureThreshold?: number;
}

/** Tokens main-api checks in one `POST …/token-status/batch`. */
export const TOKEN_STATUS_BATCH_LIMIT = 500;

const DEFAULT_BACKOFF_MS = 2_000;
const DEFAULT_FAILURE_THRESHOLD = 3;

/**
 * Asks main-api whether a token was revoked, sending the token itself (main-api answers 204 for a
 * live token, 401 for a revoked one), so this service holds no credential of its own. The guard
 * asks once per token and cache period, not per request (and afresh on `@FreshTokenStatus()` routes).
 *
 * When main-api cannot answer, the token's status is unknown and the call fails closed: it throws
 * `TokenStatusUnavailableError` (503 with Retry-After); after a few failures in a row it refuses at
 * once for a short back-off (one slow answer under load must not refuse every new token). Tokens confirmed live shortly before keep working from the guard's cache meanwhile
 * (docs/decisions.md, "Revocation"): a stalled main-api must not let a revoked token in.
 */
export class RemoteTokenStatus extends TokenStatusSource {
  private readonly logger = new Logger('RemoteTokenStatus');
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private unreachableUntil = 0;
  private failuresInARow = 0;
  // Registered in the service's registry by registerMetrics; counted from the first question on.
  private readonly checks = new Counter({
    name: 'token_status_checks_total',
    help: "Questions to main-api's token status, by outcome: live, revoked, or unavailable (refused with 503)",
    labelNames: ['outcome'] as const,
    registers: [],
  });

  constructor(private readonly options: RemoteTokenStatusOptions) {
    super();
  }

  override registerMetrics(registry: Registry): void {
    registry.registerMetric(this.checks);
  }

  isRevoked(_principal: Principal, token: string): Promise<boolean> {
    const backoffLeftMs = this.unreachableUntil - Date.now();
    if (backoffLeftMs > 0) {
      this.checks.inc({ outcome: 'unavailable' });
      return Promise.reject(new TokenStatusUnavailableError(Math.ceil(backoffLeftMs / 1000)));
    }
    // Concurrent requests with one token share one question.
    let answer = this.inFlight.get(token);
    if (!answer) {
      answer = this.ask(token).finally(() => this.inFlight.delete(token));
      this.inFlight.set(token, answer);
    }
    return answer;
  }

  /**
   * One `POST <url>/batch` per 500 tokens (main-api verifies each and looks every login up in one
   * statement), so a replica's periodic check of all its change streams is one question. A main-api
   * that predates the batch route is asked once per token instead.
   */
  override async revokedAmong(tokens: readonly TokenToCheck[]): Promise<boolean[]> {
    const answers: boolean[] = [];
    for (let at = 0; at < tokens.length; at += TOKEN_STATUS_BATCH_LIMIT) {
      const chunk = tokens.slice(at, at + TOKEN_STATUS_BATCH_LIMIT);
      answers.push(
        ...((await this.askMany(chunk.map(({ token }) => token))) ?? (await super.revokedAmong(chunk))),
      );
    }
    return answers;
  }

  /** The batch route's answer; undefined when main-api has no such route. */
  private async askMany(tokens: string[]): Promise<boolean[] | undefined> {
    let revoked: unknown;
    try {
      const response = await fetch(`${this.options.url}/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tokens }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if ([401, 404, 405].includes(response.status)) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`token status answered ${response.status}`);
      }
      revoked = ((await response.json()) as { revoked?: unknown }).revoked;
      if (
        !Array.isArray(revoked) ||
        revoked.length !== tokens.length ||
        !revoked.every((one) => typeof one === 'boolean')
      ) {
        throw new Error('token status answered a batch that does not match the question');
      }
    } catch (error) {
      this.checks.inc({ outcome: 'unavailable' }, tokens.length);
      this.logger.warn(
        `could not ask main-api about ${tokens.length} tokens: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new TokenStatusUnavailableError(1);
    }
    for (const one of revoked) {
      this.checks.inc({ outcome: one ? 'revoked' : 'live' });
    }
    return revoked;
  }

  private async ask(token: string): Promise<boolean> {
    try {
      const response = await fetch(this.options.url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body?.cancel();
      if (response.status !== 401 && !response.ok) {
        throw new Error(`token status answered ${response.status}`);
      }
      this.failuresInARow = 0;
      this.checks.inc({ outcome: response.status === 401 ? 'revoked' : 'live' });
      return response.status === 401;
    } catch (error) {
      const backoffMs = this.options.unreachableBackoffMs ?? DEFAULT_BACKOFF_MS;
      this.checks.inc({ outcome: 'unavailable' });
      this.failuresInARow += 1;
      if (this.failuresInARow >= (this.options.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD)) {
        this.failuresInARow = 0;
        // One line per back-off, not one per refused request.
        this.logger.warn(
          `could not ask main-api whether a token was revoked; refusing unconfirmed tokens with 503 for ${backoffMs} ms: ${
            error instanceof Error ? error.message : String(error)
          }`,
        );
        this.unreachableUntil = Math.max(this.unreachableUntil, Date.now() + backoffMs);
      }
      throw new TokenStatusUnavailableError(Math.max(1, Math.ceil(backoffMs / 1000)));
    }
  }
}
