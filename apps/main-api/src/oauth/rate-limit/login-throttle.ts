import { createHash } from 'node:crypto';
import { HttpException, HttpStatus } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { PasswordHashingBusyError, type DerivationTicket } from '../../security/password-hashing';
import { clientAddressOf } from './client-address';

export interface LoginThrottleSettings {
  /** Failed attempts per IP in a window, over all accounts. */
  perIp: number;
  /** Failed attempts per account identifier from one IP in a window, and per trusted device. */
  perAccountAndIp: number;
  /** Failed attempts per account identifier from all IPs in a window (distributed guessing). */
  perAccount: number;
  windowSeconds: number;
}

/** What a token request is about: the IP it comes from and the account it names, if any. */
export interface LoginAttempt {
  ip: string;
  /** `key:<api key>`, `user:<e-mail>` or `refresh`, as the grant actually used names the caller. */
  account?: string;
  /**
   * The nonce of a valid device cookie of `account` (DeviceCookies): the attempt comes from a device
   * that signed in to this account before, and is counted per device instead of per address and
   * account, so nobody else's failures lock it out (OWASP's device cookies).
   */
  device?: string;
}

/** 429 with Retry-After, in main-api's error body (AC007). */
export class LoginThrottledError extends HttpException {
  constructor(retryAfterSeconds: number) {
    super(
      { message: 'Too many failed sign-in attempts; retry later', retryAfterSeconds },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

interface Bucket {
  key: string;
  limit: number;
}

/**
 * Counts failed token requests, never successful ones, per IP, per account and IP, and per account,
 * or only per device for an attempt from a trusted device, in PostgreSQL so every replica counts
 * against the same limits; an IPv6 address counts per /64 (clientAddressOf). Past a limit the bucket
 * backs off: 1 s after the first failure too many, doubling with each further one, at most the
 * window. A correct secret is therefore never slowed down by somebody else's failures where the
 * grant is cheap to check (client credentials, refresh), and a password guesser is throttled per IP
 * and account. Accounts are kept as digests: the table holds no e-mail address. Closed windows are
 * removed by the retention pruner (rate-limit.retention.ts).
 */
export class LoginThrottle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: LoginThrottleSettings,
  ) {}

  /** Refuses with 429 when any bucket of the attempt is backing off. */
  async assertNotBlocked(attempt: LoginAttempt): Promise<void> {
    const retryAfter = await this.retryAfterSeconds(this.bucketsOf(attempt).map(({ key }) => key));
    if (retryAfter > 0) {
      throw new LoginThrottledError(retryAfter);
    }
  }

  /** Counts a failure; answers the seconds to wait when this failure put a bucket past its limit. */
  async recordFailure(attempt: LoginAttempt): Promise<number> {
    const buckets = this.bucketsOf(attempt);
    const counted = await this.dataSource.query<{ key: string; hits: number }[]>(
      `INSERT INTO rate_limit_buckets (key, window_ends_at, hits)
       SELECT key, now() + make_interval(secs => $2), 1 FROM unnest($1::text[]) AS key
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limit_buckets.window_ends_at <= now() THEN 1 ELSE rate_limit_buckets.hits + 1 END,
         blocked_until = CASE WHEN rate_limit_buckets.window_ends_at <= now() THEN NULL
                              ELSE rate_limit_buckets.blocked_until END,
         window_ends_at = CASE WHEN rate_limit_buckets.window_ends_at <= now()
                               THEN EXCLUDED.window_ends_at ELSE rate_limit_buckets.window_ends_at END
       RETURNING key, hits`,
      [buckets.map(({ key }) => key), this.settings.windowSeconds],
    );
    const limitOf = new Map(buckets.map(({ key, limit }) => [key, limit]));
    const backOffs = counted
      .map(({ key, hits }) => ({ key, over: hits - (limitOf.get(key) ?? Infinity) }))
      .filter(({ over }) => over > 0)
      .map(({ key, over }) => ({
        key,
        seconds: Math.min(2 ** Math.min(over - 1, 20), this.settings.windowSeconds),
      }));
    if (backOffs.length > 0) {
      await this.dataSource.query(
        `UPDATE rate_limit_buckets AS bucket SET blocked_until = now() + make_interval(secs => b.seconds)
           FROM unnest($1::text[], $2::int[]) AS b(key, seconds) WHERE bucket.key = b.key`,
        [backOffs.map(({ key }) => key), backOffs.map(({ seconds }) => seconds)],
      );
    }
    return Math.max(0, ...backOffs.map(({ seconds }) => seconds));
  }

  /**
   * Runs the attempt's password check in its place of the hashing queue (hashingQueueOf). A refusal
   * for a full queue (PasswordHashingBusyError, 503) counts as a failure of its sender only, its
   * address or its trusted device, not of the account it names: a flood is throttled by its own
   * refusals (429 once past the limit), not only by its wrong passwords.
   */
  async checkPassword<T>(attempt: LoginAttempt, check: (queue: DerivationTicket) => Promise<T>): Promise<T> {
    try {
      return await check(hashingQueueOf(attempt));
    } catch (error) {
      if (error instanceof PasswordHashingBusyError) {
        const retryAfter = await this.recordFailure({ ip: attempt.ip, device: attempt.device });
        if (retryAfter > 0) {
          throw new LoginThrottledError(retryAfter);
        }
      }
      throw error;
    }
  }

  /** A success from this IP clears that account's failures from it (the owner got it right). */
  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    const keys = [
      ...(attempt.account !== undefined ? [accountAndIpKey(attempt.account, attempt.ip)] : []),
      ...(attempt.device !== undefined ? [deviceKey(attempt.device)] : []),
    ];
    if (keys.length > 0) {
      await this.dataSource.query('DELETE FROM rate_limit_buckets WHERE key = ANY($1)', [keys]);
    }
  }

  private async retryAfterSeconds(keys: string[]): Promise<number> {
    const [row] = await this.dataSource.query<{ seconds: string | null }[]>(
      `SELECT ceil(max(extract(epoch FROM blocked_until - now()))) AS seconds
         FROM rate_limit_buckets WHERE key = ANY($1) AND blocked_until > now()`,
      [keys],
    );
    return row?.seconds === null || row === undefined ? 0 : Math.max(1, Number(row.seconds));
  }

  private bucketsOf(attempt: LoginAttempt): Bucket[] {
    if (attempt.device !== undefined) {
      // A device gets the budget of one address for one account, whatever others do.
      return [{ key: deviceKey(attempt.device), limit: this.settings.perAccountAndIp }];
    }
    const buckets: Bucket[] = [{ key: `ip:${clientAddressOf(attempt.ip)}`, limit: this.settings.perIp }];
    if (attempt.account !== undefined) {
      buckets.push(
        { key: accountAndIpKey(attempt.account, attempt.ip), limit: this.settings.perAccountAndIp },
        { key: `account:${digest(attempt.account)}`, limit: this.settings.perAccount },
      );
    }
    return buckets;
  }
}

/**
 * Where the attempt's password check waits: ahead of the others from a trusted device, and in
 * either lane within its address's share, so no address holds more than its share of the queue.
 */
function hashingQueueOf(attempt: LoginAttempt): DerivationTicket {
  return {
    lane: attempt.device !== undefined ? 'trusted' : 'untrusted',
    sender: clientAddressOf(attempt.ip),
  };
}

const digest = (value: string): string => createHash('sha256').update(value).digest('base64url');

function accountAndIpKey(account: string, ip: string): string {
  return `account:${digest(account)}:${clientAddressOf(ip)}`;
}

function deviceKey(device: string): string {
  return `device:${digest(device)}`;
}
